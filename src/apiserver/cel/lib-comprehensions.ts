/**
 * cel-go's two-variable comprehensions (ext.TwoVarComprehensions, in kube-apiserver from 1.32):
 * `all`, `exists`, `existsOne` (or `exists_one`) with an index and a value (a key and a value over a
 * map), and `transformList`, `transformMap`, `transformMapEntry`, each with an optional filter.
 * They evaluate as cel-go expands them: `all` stops at the first false and `exists` at the first
 * true, and an error elsewhere only counts when no element decided the answer; `existsOne` and the
 * transforms stop at the first error; `transformMapEntry` refuses a key made twice.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from './errors.js';

interface MacroContext {
  forkWithVariable(name: string, type: unknown): MacroContext;
  reuse(ctx: unknown): MacroContext;
  setIterValue(value: unknown, ev: unknown): MacroContext;
}
interface Checker {
  check(node: unknown, ctx: unknown): unknown;
  getType(name: string): unknown;
}
interface Evaluator {
  run(node: unknown, ctx: unknown): unknown;
}
interface MacroNode {
  op: string;
  args: unknown;
}

/** The (index or key, value) pairs a comprehension walks: a list's by index, a map's by key. */
function entriesOf(range: unknown): [unknown, unknown][] {
  if (Array.isArray(range)) return range.map((v, i) => [BigInt(i), v]);
  if (range instanceof Map) return [...range.entries()];
  if (range !== null && typeof range === 'object') return Object.entries(range);
  throw celError(`cannot iterate over ${typeof range}`);
}

/** The two variables, checked as cel-go checks them: simple names, not the same one. */
function variableNames(name: string, [first, second]: MacroNode[]): [string, string] {
  for (const v of [first, second]) if (v?.op !== 'id') throw new Error(`${name}() argument must be a simple name`);
  const [a, b] = [first!.args as string, second!.args as string];
  if (a === b) throw new Error(`duplicate variable name: ${a}`);
  return [a, b];
}

/** A macro over `range` binding two variables; `run` gets the range's entries and the body to run per entry. */
function twoVariableMacro(
  env: Environment,
  name: string,
  arity: 3 | 4,
  result: string,
  run: (entries: [unknown, unknown][], body: (entry: [unknown, unknown], arg: number) => unknown) => unknown,
): void {
  const params = Array.from({ length: arity }, () => 'ast').join(', ');
  env.registerFunction(`list.${name}(${params}): ${result}`, (({ args, receiver }: { args: MacroNode[]; receiver: MacroNode }) => {
    const [keyName, valueName] = variableNames(name, args);
    const bodies = args.slice(2);
    let keyCtx: MacroContext | undefined;
    let valueCtx: MacroContext | undefined;
    return {
      typeCheck(chk: Checker, _m: unknown, ctx: MacroContext) {
        chk.check(receiver, ctx);
        keyCtx = ctx.forkWithVariable(keyName, chk.getType('dyn'));
        valueCtx = keyCtx.forkWithVariable(valueName, chk.getType('dyn'));
        for (const b of bodies) chk.check(b, valueCtx);
        return chk.getType(result);
      },
      evaluate(ev: Evaluator, _m: unknown, ctx: unknown) {
        const entries = entriesOf(ev.run(receiver, ctx));
        return run(entries, ([k, v], arg) => {
          const inner = valueCtx!.reuse(keyCtx!.reuse(ctx).setIterValue(k, ev)).setIterValue(v, ev);
          return ev.run(bodies[arg], inner);
        });
      },
    };
  }) as never);
}

/** `all` or `exists`: the first element giving `decisive` decides; otherwise an error seen along the way, or `!decisive`. */
const quantifier =
  (decisive: boolean) =>
  (entries: [unknown, unknown][], body: (e: [unknown, unknown], arg: number) => unknown): boolean => {
    let error: unknown;
    for (const e of entries) {
      try {
        if (body(e, 0) === decisive) return decisive;
      } catch (err) {
        error ??= err;
      }
    }
    if (error !== undefined) throw error;
    return !decisive;
  };

/** With a filter (4 arguments) the transform is the last body, and only entries the filter keeps are transformed. */
const kept = (filtered: boolean, e: [unknown, unknown], body: (e: [unknown, unknown], arg: number) => unknown): boolean =>
  !filtered || body(e, 0) === true;

function mapInsert(out: Record<string, unknown>, key: unknown, value: unknown): void {
  const k = String(key);
  if (Object.hasOwn(out, k)) throw celError(`insert failed: key ${k} already exists`);
  out[k] = value;
}

export function registerComprehensions(env: Environment): void {
  twoVariableMacro(env, 'all', 3, 'bool', quantifier(false));
  twoVariableMacro(env, 'exists', 3, 'bool', quantifier(true));
  for (const name of ['existsOne', 'exists_one']) {
    twoVariableMacro(env, name, 3, 'bool', (entries, body) => entries.filter((e) => body(e, 0) === true).length === 1);
  }
  for (const arity of [3, 4] as const) {
    const filtered = arity === 4;
    const last = arity - 3;
    twoVariableMacro(env, 'transformList', arity, 'list', (entries, body) =>
      entries.filter((e) => kept(filtered, e, body)).map((e) => body(e, last)),
    );
    twoVariableMacro(env, 'transformMap', arity, 'map', (entries, body) => {
      const out: Record<string, unknown> = {};
      for (const e of entries) if (kept(filtered, e, body)) mapInsert(out, e[0], body(e, last));
      return out;
    });
    twoVariableMacro(env, 'transformMapEntry', arity, 'map', (entries, body) => {
      const out: Record<string, unknown> = {};
      for (const e of entries) {
        if (!kept(filtered, e, body)) continue;
        const entry = body(e, last);
        if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
          throw celError('transformMapEntry: transform must be a map');
        for (const [k, v] of entriesOf(entry)) mapInsert(out, k, v);
      }
      return out;
    });
  }
}
