/**
 * Label selectors, as Kubernetes parses and applies them: the string grammar of `?labelSelector=`
 * (`k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, `k>5`, `k<5`, comma = AND) and
 * the `LabelSelector` struct inside objects (`matchLabels`, `matchExpressions`).
 *
 * Invariants: a `Selector` is immutable; its requirements are sorted by key (stable) and each
 * requirement's values are sorted and distinct, so `toString()` is canonical and
 * `parseLabelSelector(s.toString())` selects exactly what `s` selects. Every key and value has passed
 * the API server's validation. Label sets are read with own-property checks only, so keys such as
 * `constructor` are never confused with `Object.prototype`.
 */
import { SelectorParseError } from './errors.js';
import type { LabelSelector } from './object.js';
import { labelValueErrors, qualifiedNameErrors } from './validation.js';

/** Operators with the names of apimachinery's `selection.Operator`. */
export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

/** One term of a selector; `values` is sorted and distinct (empty for `exists` and `!`). */
export interface Requirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/** A parsed label selector: all requirements must hold (AND). */
export interface Selector {
  readonly requirements: readonly Requirement[];
  /** True when every requirement holds for `labels` (absent labels are an empty set). */
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** True for the selector that matches everything (no requirements). `nothing()` is not empty. */
  empty(): boolean;
  /** Canonical string form, parseable by `parseLabelSelector`. */
  toString(): string;
}

type Labels = Readonly<Record<string, string>>;

/** A requirement plus what matching needs, precomputed once. */
interface CompiledRequirement extends Requirement {
  readonly set: ReadonlySet<string>;
  /** The integer bound for `gt`/`lt`. */
  readonly bound: bigint | undefined;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Parses a base-10 int64 like Go's `strconv.ParseInt(s, 10, 64)`; undefined when it does not. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

const has = (labels: Labels, key: string): boolean => Object.hasOwn(labels, key);

function requirementMatches(r: CompiledRequirement, labels: Labels): boolean {
  switch (r.operator) {
    case '=':
    case '==':
    case 'in':
      return has(labels, r.key) && r.set.has(labels[r.key]!);
    case '!=':
    case 'notin':
      return !has(labels, r.key) || !r.set.has(labels[r.key]!);
    case 'exists':
      return has(labels, r.key);
    case '!':
      return !has(labels, r.key);
    case 'gt':
    case 'lt': {
      if (!has(labels, r.key)) return false;
      const v = parseInt64(labels[r.key]!);
      if (v === undefined || r.bound === undefined) return false;
      return r.operator === 'gt' ? v > r.bound : v < r.bound;
    }
  }
}

function requirementString(r: Requirement): string {
  switch (r.operator) {
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case 'in':
    case 'notin':
      return `${r.key} ${r.operator} (${r.values.join(',')})`;
    case 'gt':
      return `${r.key}>${r.values[0]}`;
    case 'lt':
      return `${r.key}<${r.values[0]}`;
    default:
      return `${r.key}${r.operator}${r.values[0]}`;
  }
}

class RequirementsSelector implements Selector {
  readonly requirements: readonly Requirement[];
  readonly #compiled: readonly CompiledRequirement[];
  constructor(compiled: CompiledRequirement[]) {
    // Array.prototype.sort is stable, so requirements with equal keys keep their written order.
    this.#compiled = compiled.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.requirements = Object.freeze(this.#compiled.map(({ key, operator, values }) => Object.freeze({ key, operator, values })));
  }
  matches(labels: Labels | undefined): boolean {
    const ls = labels ?? {};
    for (const r of this.#compiled) if (!requirementMatches(r, ls)) return false;
    return true;
  }
  empty(): boolean {
    return this.requirements.length === 0;
  }
  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}

const NOTHING: Selector = Object.freeze({
  requirements: Object.freeze([]) as readonly Requirement[],
  matches: () => false,
  empty: () => false,
  toString: () => '',
});
const EVERYTHING: Selector = Object.freeze(new RequirementsSelector([]));

/** The selector that matches every label set (also what an empty string parses to). */
export const everything = (): Selector => EVERYTHING;

/** The selector that matches no label set (what a null `LabelSelector` struct means). */
export const nothing = (): Selector => NOTHING;

/** Where a value came from in the selector text, for error positions. */
interface ValueAt {
  value: string;
  position: number | undefined;
}

/** The failure of one requirement, before it is worded for a parse or a struct. */
class RequirementError {
  constructor(
    readonly reason: string,
    readonly position: number | undefined,
  ) {}
}

/** Validates a requirement like apimachinery's `NewRequirement` and compiles it; throws RequirementError. */
function compileRequirement(key: string, operator: LabelOperator, vals: readonly ValueAt[], keyPosition?: number): CompiledRequirement {
  const keyErrs = qualifiedNameErrors(key);
  if (keyErrs.length > 0) throw new RequirementError(`key: Invalid value: ${JSON.stringify(key)}: ${keyErrs.join('; ')}`, keyPosition);
  const at = vals[0]?.position ?? keyPosition;
  const listed = JSON.stringify(vals.map((v) => v.value));
  switch (operator) {
    case 'in':
    case 'notin':
      if (vals.length === 0)
        throw new RequirementError(`values: Invalid value: ${listed}: for 'in', 'notin' operators, values set can't be empty`, at);
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1)
        throw new RequirementError(`values: Invalid value: ${listed}: exact-match compatibility requires one single value`, at);
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0)
        throw new RequirementError(`values: Invalid value: ${listed}: values set must be empty for exists and does not exist`, at);
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1)
        throw new RequirementError(`values: Invalid value: ${listed}: for 'Gt', 'Lt' operators, exactly one value is required`, at);
      if (parseInt64(vals[0]!.value) === undefined) {
        throw new RequirementError(
          `values[0]: Invalid value: ${JSON.stringify(vals[0]!.value)}: for 'Gt', 'Lt' operators, the value must be an integer`,
          at,
        );
      }
      break;
  }
  vals.forEach((v, i) => {
    const errs = labelValueErrors(v.value);
    if (errs.length > 0)
      throw new RequirementError(`values[${i}][${key}]: Invalid value: ${JSON.stringify(v.value)}: ${errs.join('; ')}`, v.position ?? at);
  });
  const values = Object.freeze([...new Set(vals.map((v) => v.value))].sort());
  const bound = operator === 'gt' || operator === 'lt' ? parseInt64(values[0]!) : undefined;
  return { key, operator, values, set: new Set(values), bound };
}

// --- the string grammar -------------------------------------------------------------------------

type Tok = 'end' | 'ident' | 'in' | 'notin' | '(' | ')' | ',' | '!' | '=' | '==' | '!=' | '>' | '<';

interface Token {
  tok: Tok;
  lit: string;
  pos: number;
}

const SYMBOLS = new Set<string>(['!', '!=', '(', ')', ',', '=', '==', '>', '<']);
const isSymbolChar = (c: string): boolean => c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<';
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/** Splits the text into tokens: the longest known symbol, or a run of other non-space characters. */
function lex(s: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && isSpace(s[i]!)) i++;
    if (i >= s.length) {
      out.push({ tok: 'end', lit: '', pos: s.length });
      return out;
    }
    const start = i;
    if (isSymbolChar(s[i]!)) {
      let lit = s[i++]!;
      while (i < s.length && SYMBOLS.has(lit + s[i]!)) lit += s[i++]!;
      out.push({ tok: lit as Tok, lit, pos: start });
    } else {
      while (i < s.length && !isSymbolChar(s[i]!) && !isSpace(s[i]!)) i++;
      const lit = s.slice(start, i);
      out.push({ tok: lit === 'in' || lit === 'notin' ? lit : 'ident', lit, pos: start });
    }
  }
}

/** A parse failure at a token; `requirement` marks the failures Kubernetes words as requirement errors. */
class ParseFailure {
  constructor(
    readonly reason: string,
    readonly position: number | undefined,
    readonly requirement: boolean,
  ) {}
}

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

/** A recursive-descent parser over the token list, with apimachinery's grammar and messages. */
class Parser {
  #tokens: Token[];
  #i = 0;
  constructor(text: string) {
    this.#tokens = lex(text);
  }

  /**
   * The next token. In value position (`values`), the words `in` and `notin` are plain identifiers,
   * so `k=in` and `k in (in)` are valid.
   */
  #peek(values: boolean): Token {
    const t = this.#tokens[this.#i]!;
    return values && (t.tok === 'in' || t.tok === 'notin') ? { ...t, tok: 'ident' } : t;
  }
  #next(values: boolean): Token {
    const t = this.#peek(values);
    if (this.#i < this.#tokens.length - 1) this.#i++;
    return t;
  }

  parse(): CompiledRequirement[] {
    const out: CompiledRequirement[] = [];
    for (;;) {
      const t = this.#peek(true);
      if (t.tok === 'end') return out;
      if (t.tok !== 'ident' && t.tok !== '!') {
        throw new ParseFailure(`found '${t.lit}', expected: !, identifier, or 'end of string'`, t.pos, false);
      }
      out.push(this.#requirement());
      const sep = this.#next(true);
      if (sep.tok === 'end') return out;
      if (sep.tok !== ',') throw new ParseFailure(`found '${sep.lit}', expected: ',' or 'end of string'`, sep.pos, false);
      const after = this.#peek(true);
      if (after.tok !== 'ident' && after.tok !== '!') {
        throw new ParseFailure(`found '${after.lit}', expected: identifier after ','`, after.pos, false);
      }
    }
  }

  #requirement(): CompiledRequirement {
    let t = this.#next(true);
    let operator: LabelOperator | undefined;
    if (t.tok === '!') {
      operator = '!';
      t = this.#next(true);
    }
    if (t.tok !== 'ident') throw new ParseFailure(`found '${t.lit}', expected: identifier`, t.pos, true);
    const key = t.lit;
    const keyPos = t.pos;
    const la = this.#peek(true).tok;
    if (operator === '!' || la === 'end' || la === ',') return this.#compile(key, operator ?? 'exists', [], keyPos);

    const op = this.#next(false);
    switch (op.tok) {
      case 'in':
      case 'notin':
        return this.#compile(key, op.tok, this.#setValues(), keyPos);
      case '=':
      case '==':
      case '!=':
        return this.#compile(key, op.tok, this.#exactValue(), keyPos);
      case '>':
        return this.#compile(key, 'gt', this.#exactValue(), keyPos);
      case '<':
        return this.#compile(key, 'lt', this.#exactValue(), keyPos);
      default:
        throw new ParseFailure(`found '${op.lit}', expected: ${BINARY_OPERATORS}`, op.pos, true);
    }
  }

  #compile(key: string, operator: LabelOperator, values: ValueAt[], keyPos: number): CompiledRequirement {
    try {
      return compileRequirement(key, operator, values, keyPos);
    } catch (e) {
      if (e instanceof RequirementError) throw new ParseFailure(e.reason, e.position, true);
      throw e;
    }
  }

  /** `(a,b)`; empty members (`()`, `(,a)`, `(a,)`, `(a,,b)`) stand for the empty value, as in Kubernetes. */
  #setValues(): ValueAt[] {
    const open = this.#next(true);
    if (open.tok !== '(') throw new ParseFailure(`found '${open.lit}' expected: '('`, open.pos, true);
    const first = this.#peek(true);
    if (first.tok === ')') {
      this.#next(true);
      return [{ value: '', position: first.pos }];
    }
    if (first.tok !== 'ident' && first.tok !== ',') {
      throw new ParseFailure(`found '${first.lit}', expected: ',', ')' or identifier`, first.pos, true);
    }
    const vals: ValueAt[] = [];
    for (;;) {
      const t = this.#next(true);
      if (t.tok === 'ident') {
        vals.push({ value: t.lit, position: t.pos });
        const la = this.#peek(true);
        if (la.tok === ')') break;
        if (la.tok !== ',') throw new ParseFailure(`found '${la.lit}', expected: ',' or ')'`, la.pos, true);
      } else if (t.tok === ',') {
        if (vals.length === 0) vals.push({ value: '', position: t.pos });
        const la = this.#peek(true);
        if (la.tok === ')') {
          vals.push({ value: '', position: la.pos });
          break;
        }
        if (la.tok === ',') {
          this.#next(true);
          vals.push({ value: '', position: la.pos });
        }
      } else {
        throw new ParseFailure(`found '${t.lit}', expected: ',', or identifier`, t.pos, true);
      }
    }
    this.#next(true); // the ')' seen by the lookahead above
    return vals;
  }

  /** The single value after `=`, `==`, `!=`, `>`, `<`; nothing before `,` or the end means the empty value. */
  #exactValue(): ValueAt[] {
    const la = this.#peek(true);
    if (la.tok === 'end' || la.tok === ',') return [{ value: '', position: la.pos }];
    const t = this.#next(true);
    if (t.tok === 'ident') return [{ value: t.lit, position: t.pos }];
    throw new ParseFailure(`found '${t.lit}', expected: identifier`, t.pos, true);
  }
}

/**
 * Parses the string form of a label selector (what `?labelSelector=` carries). The empty string (or
 * only whitespace) selects everything. Throws `SelectorParseError` with the position and reason.
 */
export function parseLabelSelector(text: string): Selector {
  try {
    return new RequirementsSelector(new Parser(text).parse());
  } catch (e) {
    if (e instanceof ParseFailure) {
      throw new SelectorParseError(e.requirement ? `unable to parse requirement: ${e.reason}` : e.reason, e.reason, e.position);
    }
    throw e;
  }
}

const STRUCT_OPERATORS: Readonly<Record<string, LabelOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

function structRequirement(key: string, operator: LabelOperator, values: readonly string[]): CompiledRequirement {
  try {
    return compileRequirement(
      key,
      operator,
      values.map((value) => ({ value, position: undefined })),
    );
  } catch (e) {
    if (e instanceof RequirementError) throw new SelectorParseError(e.reason, e.reason, undefined);
    throw e;
  }
}

/**
 * The selector a `LabelSelector` struct means, as `metav1.LabelSelectorAsSelector`: `null`/`undefined`
 * matches nothing, `{}` matches everything; `matchLabels` entries are `key=value`; `In`/`NotIn` need
 * values and `Exists`/`DoesNotExist` must have none. Throws `SelectorParseError` (no position).
 */
export function selectorFromLabelSelector(struct: LabelSelector | null | undefined): Selector {
  if (struct === null || struct === undefined) return NOTHING;
  const labels = Object.entries(struct.matchLabels ?? {});
  const exprs = struct.matchExpressions ?? [];
  if (labels.length + exprs.length === 0) return EVERYTHING;
  const reqs: CompiledRequirement[] = labels.map(([k, v]) => structRequirement(k, '=', [v]));
  for (const expr of exprs) {
    const op = Object.hasOwn(STRUCT_OPERATORS, expr.operator) ? STRUCT_OPERATORS[expr.operator] : undefined;
    if (op === undefined) {
      const reason = `${JSON.stringify(expr.operator)} is not a valid label selector operator`;
      throw new SelectorParseError(reason, reason, undefined);
    }
    reqs.push(structRequirement(expr.key, op, expr.values ?? []));
  }
  return new RequirementsSelector(reqs);
}

/** The selector `k1=v1,k2=v2,…` for a label set; the empty set selects everything. Invalid keys or values throw. */
export function selectorFromSet(labels: Readonly<Record<string, string>>): Selector {
  return new RequirementsSelector(Object.entries(labels).map(([k, v]) => structRequirement(k, '=', [v])));
}
