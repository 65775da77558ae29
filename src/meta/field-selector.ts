/**
 * Field selectors, as Kubernetes parses them (`?fieldSelector=`): terms `field=value`,
 * `field==value` and `field!=value`, AND-ed by commas, with `\,`, `\=` and `\\` escaping the three
 * special characters in values. Nothing is trimmed: `a = b` compares field `a ` with value ` b`,
 * exactly as the API server does. A field that is absent reads as the empty string, so `f=` matches
 * objects without `f` and `f!=x` matches them too.
 *
 * Invariant: a `FieldSelector` is immutable, its terms are in the API server's order (sorted by their
 * raw text), and `parseFieldSelector(s.toString())` selects exactly what `s` selects. Which fields a
 * kind supports is the server's business: `requirements` lets it check.
 */
import { SelectorParseError } from './errors.js';

/** `==` is normalised to `=`, as Kubernetes does. */
export type FieldOperator = '=' | '!=';

/** One term of a field selector: a dotted field path, `=` or `!=`, and the unescaped value. */
export interface FieldRequirement {
  /** The dotted path, e.g. `metadata.name` or `spec.nodeName`. */
  readonly field: string;
  readonly operator: FieldOperator;
  /** The unescaped value. */
  readonly value: string;
}

/** A parsed field selector: `=`/`!=` terms that must all hold, matched against string field values. @extension */
export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  /** True when every term holds; `get` returns a field's string value, or undefined when absent. */
  matches(get: (field: string) => string | undefined): boolean;
  /** True when the selector has no terms (it matches everything). */
  empty(): boolean;
  /**
   * The value `field` must equal for the selector to match (a `field=value` term), or undefined. The
   * API server uses this to scope a list or watch pinned to one `metadata.name` or `metadata.namespace`.
   */
  requiresExactMatch(field: string): string | undefined;
  /** Canonical form with values escaped; parseable by `parseFieldSelector`. */
  toString(): string;
}

/** Escapes `\`, `,` and `=` in a value, as `fields.EscapeValue`. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

function fail(reason: string, position: number): never {
  throw new SelectorParseError(`invalid field selector: ${reason}`, reason, position);
}

/** Undoes `escapeFieldValue`; an unknown escape, a trailing `\`, or a bare `,`/`=` is an error. */
function unescapeValue(raw: string, offset: number): string {
  if (!/[\\,=]/.test(raw)) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\') {
      const n = raw[i + 1];
      if (n === undefined) fail('invalid escape sequence: \\', offset + i);
      if (n !== '\\' && n !== ',' && n !== '=') fail(`invalid escape sequence: \\${n}`, offset + i);
      out += n;
      i++;
    } else if (c === ',' || c === '=') {
      fail(`unescaped character in value: ${c}`, offset + i);
    } else {
      out += c;
    }
  }
  return out;
}

/** Raw terms with their offsets, split at commas that are not escaped. */
function splitTerms(text: string): { term: string; pos: number }[] {
  const out: { term: string; pos: number }[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === ',') {
      out.push({ term: text.slice(start, i), pos: start });
      start = i + 1;
    }
  }
  out.push({ term: text.slice(start), pos: start });
  return out;
}

const OPERATORS = ['!=', '==', '='] as const;

const termString = (r: FieldRequirement): string => `${r.field}${r.operator}${escapeFieldValue(r.value)}`;
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

class TermsSelector implements FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}
  matches(get: (field: string) => string | undefined): boolean {
    for (const r of this.requirements) {
      const v = get(r.field) ?? '';
      if ((v === r.value) !== (r.operator === '=')) return false;
    }
    return true;
  }
  empty(): boolean {
    return this.requirements.length === 0;
  }
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }
  toString(): string {
    return this.requirements.map(termString).join(',');
  }
}

/**
 * Parses a field selector. The empty string, and empty terms (`a=b,,c=d`), select everything.
 * A term with no operator or a badly escaped value throws `SelectorParseError` at its position.
 * @extension
 */
export function parseFieldSelector(text: string): FieldSelector {
  if (text === '') return new TermsSelector(Object.freeze([]));
  const terms = splitTerms(text).sort((a, b) => byText(a.term, b.term));
  const reqs: FieldRequirement[] = [];
  for (const { term, pos } of terms) {
    if (term === '') continue;
    let found: { at: number; op: (typeof OPERATORS)[number] } | undefined;
    for (let i = 0; i < term.length && !found; i++) {
      const op = OPERATORS.find((o) => term.startsWith(o, i));
      if (op) found = { at: i, op };
    }
    if (!found) {
      const reason = `'${text}'; can't understand '${term}'`;
      throw new SelectorParseError(`invalid selector: ${reason}`, reason, pos);
    }
    const valueAt = found.at + found.op.length;
    reqs.push(
      Object.freeze({
        field: term.slice(0, found.at),
        operator: found.op === '!=' ? '!=' : '=',
        value: unescapeValue(term.slice(valueAt), pos + valueAt),
      }),
    );
  }
  return new TermsSelector(Object.freeze(reqs));
}

/** The selector `f1=v1,f2=v2,…` for a set of exact field values, its terms ordered as parsing would order them. */
export function fieldSelectorFromSet(fields: Readonly<Record<string, string>>): FieldSelector {
  const reqs: FieldRequirement[] = Object.entries(fields).map(([field, value]) => Object.freeze({ field, operator: '=' as const, value }));
  return new TermsSelector(Object.freeze(reqs.sort((a, b) => byText(termString(a), termString(b)))));
}

/**
 * Reads a dotted path (`metadata.name`, `spec.replicas`) from a JSON-shaped object as a field
 * selector sees it: strings as they are, numbers and booleans in their plain text form (`3`, `true`),
 * and undefined for absent paths, `null`, objects and arrays. Own properties only.
 */
export function getFieldPath(obj: unknown, path: string): string | undefined {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur) || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  switch (typeof cur) {
    case 'string':
      return cur;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(cur);
    default:
      return undefined;
  }
}

/** The values of `paths` in `obj`, as a set a server indexes or matches against; absent paths are left out. */
export function fieldsOf(obj: unknown, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of paths) {
    const v = getFieldPath(obj, p);
    if (v !== undefined) out[p] = v;
  }
  return out;
}
