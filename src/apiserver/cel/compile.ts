/**
 * Compiling one CEL expression against declared variables, in the environment of one Kubernetes
 * minor (new or stored expression, library-versions.ts): parse, type-check with the engine,
 * check field names and estimate the worst-case cost against the declared types. Failures are
 * data, worded as kube-apiserver words them (`compilation failed: ERROR: <input>:1:6: …` with the
 * source line and a caret), never exceptions: a CRD author sees every bad rule at once.
 */
import { estimateCostRange, CelCompileError, type KeywordSelection } from './cost-estimate.js';
import { environmentFor, type EnvironmentExtras } from './environment.js';
import { KEYWORD_FIELD_NAMES_MINOR, libraryLevel, NEWEST_STORED, type CelEnvironmentVersion } from './library-versions.js';
import { instrument } from './runtime-cost.js';
import type { Declarations } from './types.js';

/** A compiled expression, ready for `evaluate`. */
export interface Program {
  readonly expression: string;
  /** The variables it was compiled against. */
  readonly variables: readonly string[];
  /** The worst-case cost cel-go's estimator would give it under the declared sizes. */
  readonly estimatedCost: number;
  /** The least and the most it is estimated to cost (the least when every `&&`/`||` stops early). */
  readonly estimatedCostRange: { readonly min: number; readonly max: number };
  /** The result type the engine infers (`bool`, `string`, `dyn`, …). */
  readonly resultType: string;
  /** True when the expression mentions `name` (how a rule becomes a transition rule through `oldSelf`). */
  uses(name: string): boolean;
  /** @internal The engine's callable. */
  readonly run: (activation: Record<string, unknown>) => unknown;
}

export type CompileResult = { ok: true; program: Program } | { ok: false; error: string };

/** `<input>:line:column: message` plus the source line and a caret, as cel-go reports. */
function located(expression: string, position: number, message: string): string {
  const before = expression.slice(0, Math.max(0, position));
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = position - lineStart;
  const source = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${source}\n | ${'.'.repeat(column)}^`;
}

interface EngineError {
  summary?: string;
  message: string;
  range?: { start: number };
  node?: { op: string; args: unknown };
}

function engineMessage(e: EngineError, functions: ReadonlySet<string>): string {
  const summary = e.summary ?? e.message.split('\n')[0] ?? e.message;
  // A function the environment does not declare at all (absent from this minor's libraries) is, to cel-go, an unknown name.
  const called = /^found no matching overload for '(?:[\w.<>]+\.)?(\w+)\(/.exec(summary)?.[1];
  if (called !== undefined && !functions.has(called) && !/Namespace\./.test(summary)) {
    return `undeclared reference to '${called}' (in container '')`;
  }
  return (
    summary
      .replace(/^Unknown variable: (.*)$/, "undeclared reference to '$1' (in container '')")
      .replace(/^has\(\) invalid argument$/, 'invalid argument to has() macro')
      .replace(/^No such key: (.*)$/, "undefined field '$1'")
      // A namespaced function (`sets.contains`) is a method of its namespace's constant here; cel-go names it whole.
      .replace(
        /^found no matching overload for '(\w+)Namespace\.(\w+)\((.*)\)'$/,
        "found no matching overload for '$1.$2' applied to '($3)'",
      )
      .replace(/^found no matching overload for '(.+)\.(\w+)\((.*)\)'$/, "found no matching overload for '$2' applied to '$1.($3)'")
      .replace(/^found no matching overload for '(\w+)\((.*)\)'$/, "found no matching overload for '$1' applied to '($2)'")
      .replace(/^no such overload: (\S+) (\S+) (\S+)$/, "found no matching overload for '_$2_' applied to '($1, $3)'")
  );
}

/** Where cel-go reports a type error: a call at its `(`, an operator at its symbol, anything else where the engine says. */
function typeErrorPosition(expression: string, e: EngineError): number {
  const { node } = e;
  const start = e.range?.start ?? 0;
  const [first, second] = Array.isArray(node?.args) ? (node.args as { end?: number }[]) : [];
  let at = -1;
  if (node?.op === 'rcall') at = expression.indexOf('(', second?.end ?? start);
  else if (node?.op === 'call') at = expression.indexOf('(', start);
  else if (node !== undefined && /^(?:[=!<>]=|[<>+*/%-]|in)$/.test(node.op)) at = expression.indexOf(node.op, first?.end ?? start);
  return at < 0 ? start : at;
}

/**
 * Compiles `expression` with `declarations` as its variables, in the environment of `version`:
 * a function that environment lacks is an undeclared reference or has no matching overload, as in
 * kube-apiserver. Evaluation compiles in the newest stored environment, which has every library.
 */
export function compile(
  expression: string,
  declarations: Declarations,
  version: CelEnvironmentVersion = NEWEST_STORED,
  extras: EnvironmentExtras = {},
): CompileResult {
  const variables = Object.keys(declarations);
  const optionals = variables.filter((v) => declarations[v]!.kind === 'optional');
  const authorizers = variables.filter((v) => declarations[v]!.kind === 'authorizer');
  const { engine, functions } = environmentFor(
    version,
    variables.filter((v) => !optionals.includes(v) && !authorizers.includes(v)),
    optionals,
    authorizers,
    extras,
  );
  let parsed;
  try {
    parsed = engine.parse(expression);
  } catch (e) {
    const err = e as EngineError;
    return {
      ok: false,
      error: `compilation failed: ${located(expression, err.range?.start ?? 0, `Syntax error: ${engineMessage(err, functions)}`)}`,
    };
  }
  let checked = parsed.check();
  for (let source = withPortableHas(expression, parsed.ast); !checked.valid && source !== undefined;) {
    parsed = engine.parse(source);
    checked = parsed.check();
    source = withPortableHas(source, parsed.ast);
  }
  if (!checked.valid) {
    const err = checked.error as unknown as EngineError;
    return {
      ok: false,
      error: `compilation failed: ${located(expression, typeErrorPosition(expression, err), engineMessage(err, functions))}`,
    };
  }
  let estimatedCostRange;
  const keywords: KeywordSelection[] | undefined = libraryLevel(version) >= KEYWORD_FIELD_NAMES_MINOR ? [] : undefined;
  try {
    estimatedCostRange = estimateCostRange(parsed.ast, declarations, keywords);
  } catch (e) {
    if (!(e instanceof CelCompileError)) throw e;
    return { ok: false, error: `compilation failed: ${located(expression, e.position, e.message)}` };
  }
  // Values carry a keyword field under its escaped name, so the program runs with the escaped selections.
  if (keywords !== undefined && keywords.length > 0) parsed = engine.parse(withEscapedKeywords(parsed.ast, keywords));
  instrument(parsed.ast);
  const mentioned = new Set(identifiers(parsed.ast));
  const run = parsed as unknown as (activation: Record<string, unknown>) => unknown;
  return {
    ok: true,
    program: {
      expression,
      variables,
      estimatedCost: estimatedCostRange.max,
      estimatedCostRange,
      resultType: checked.type ?? 'dyn',
      uses: (name) => mentioned.has(name),
      run,
    },
  };
}

/** The source of `ast` with each keyword selection (`.namespace`) written as its escaped field (`.__namespace__`). */
function withEscapedKeywords(ast: unknown, keywords: readonly KeywordSelection[]): string {
  let out = (ast as { input: string }).input;
  for (const { end, field } of [...keywords].sort((a, b) => b.end - a.end)) {
    out = `${out.slice(0, end - field.length)}__${field}__${out.slice(end)}`;
  }
  return out;
}

function* identifiers(node: unknown): Generator<string> {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const x of node) yield* identifiers(x);
    return;
  }
  const n = node as { op?: string; args?: unknown };
  if (n.op === 'id' && typeof n.args === 'string') yield n.args;
  else if (n.op !== undefined) yield* identifiers(n.args);
}

interface Span {
  op: string;
  args: unknown;
  start: number;
  end: number;
}

/**
 * `has(e.f)` where `e` is not a chain of selections from a variable (`has(self.items[0].name)`):
 * CEL allows any operand, the engine only such chains. `e.?f.hasValue()` is the same test, so the
 * outermost such calls are rewritten to it; undefined when there is none left to rewrite.
 */
function withPortableHas(source: string, ast: unknown): string | undefined {
  const found: Span[] = [];
  const visit = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    const n = x as Span;
    if (n.op === 'call' && Array.isArray(n.args) && n.args[0] === 'has') {
      const arg = (n.args[1] as Span[])[0];
      if (arg?.op === '.' && !isSelectChain(arg)) {
        found.push(n);
        return;
      }
    }
    if (n.op !== undefined) visit(n.args);
  };
  visit(ast);
  if (found.length === 0) return undefined;
  let out = source;
  for (const call of found.sort((a, b) => b.start - a.start)) {
    const [operand, field] = ((call.args as [string, Span[]])[1][0] as Span).args as [Span, string];
    out = `${out.slice(0, call.start)}${source.slice(operand.start, operand.end)}.?${field}.hasValue()${out.slice(call.end)}`;
  }
  return out;
}

function isSelectChain(n: Span): boolean {
  let node = n;
  while (node.op === '.' || node.op === '.?') node = (node.args as [Span])[0];
  return node.op === 'id';
}
