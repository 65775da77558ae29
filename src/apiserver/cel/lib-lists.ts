/**
 * The Kubernetes lists library (`isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`), in every
 * environment, and the cel-go lists extension at the version kube-apiserver enables from 1.34
 * (`slice`, `flatten` with an optional depth, `distinct`, `reverse`, `sort`, `sortBy`, `lists.range`).
 * Comparisons follow CEL ordering for the element types a schema can declare.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from './errors.js';
import { celEquals } from './equality.js';
import { registerNamespace } from './namespace.js';

type Comparable = bigint | number | string | boolean | Date;

function compare(a: Comparable, b: Comparable): number {
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  throw celError(`no such overload: comparison of ${typeof a} and ${typeof b}`);
}

const extreme = (name: string, pick: (c: number) => boolean) => (list: Comparable[]) => {
  if (list.length === 0) throw celError(`${name} called on empty list`);
  return list.reduce((best, x) => (pick(compare(x, best)) ? x : best));
};

export function registerLists(env: Environment): void {
  env.registerFunction('list.isSorted(): bool', (list: Comparable[]) => list.every((x, i) => i === 0 || compare(list[i - 1]!, x) <= 0));
  env.registerFunction('list.sum(): dyn', (list: (bigint | number)[]) => {
    if (list.length === 0) return 0n;
    return list.reduce((a, b) => {
      if (typeof a !== typeof b) throw celError('no such overload: sum of mixed types');
      return (a as number) + (b as number);
    });
  });
  env.registerFunction(
    'list.min(): dyn',
    extreme('min', (c) => c < 0),
  );
  env.registerFunction(
    'list.max(): dyn',
    extreme('max', (c) => c > 0),
  );
  env.registerFunction('list.indexOf(dyn): int', (list: unknown[], x: unknown) => BigInt(list.findIndex((y) => celEquals(x, y))));
  env.registerFunction('list.lastIndexOf(dyn): int', (list: unknown[], x: unknown) => {
    for (let i = list.length - 1; i >= 0; i--) if (celEquals(x, list[i])) return BigInt(i);
    return -1n;
  });
}

interface MacroContext {
  forkWithVariable(name: string, type: unknown): MacroContext;
  reuse(ctx: unknown): MacroContext;
  setIterValue(value: unknown, ev: unknown): MacroContext;
}
interface MacroNode {
  op: string;
  args: unknown;
}

/** `list.sortBy(x, key)`: the elements ordered by `key` (the same comparable type for all), equal keys in list order. */
function sortByMacro({ args, receiver }: { args: MacroNode[]; receiver: MacroNode }) {
  const [variable, key] = args as [MacroNode, MacroNode];
  if (variable.op !== 'id') throw new Error('sortBy() variable name must be a simple identifier');
  let keyCtx: MacroContext | undefined;
  return {
    typeCheck(chk: { check(n: unknown, c: unknown): unknown; getType(n: string): unknown }, _m: unknown, ctx: MacroContext) {
      chk.check(receiver, ctx);
      keyCtx = ctx.forkWithVariable(variable.args as string, chk.getType('dyn'));
      chk.check(key, keyCtx);
      return chk.getType('list');
    },
    evaluate(ev: { run(n: unknown, c: unknown): unknown }, _m: unknown, ctx: unknown) {
      const list = ev.run(receiver, ctx) as unknown[];
      const keys = list.map((x) => ev.run(key, keyCtx!.reuse(ctx).setIterValue(x, ev)) as Comparable);
      if (keys.some((k) => typeof k !== typeof keys[0] || k instanceof Date !== keys[0] instanceof Date)) {
        throw celError('list elements must have the same type');
      }
      return keys
        .map((k, i) => [k, i] as const)
        .sort(([a, i], [b, j]) => compare(a, b) || i - j)
        .map(([, i]) => list[i]);
    },
  };
}

/** `list` with nested lists opened `depth` levels deep. */
function flatten(list: unknown[], depth: bigint): unknown[] {
  if (depth < 0n) throw celError('level must be non-negative');
  if (depth === 0n) return list;
  return list.flatMap((x) => (Array.isArray(x) ? flatten(x, depth - 1n) : [x]));
}

export function registerExtLists(env: Environment): void {
  env.registerFunction('list.slice(int, int): list', (list: unknown[], from: bigint, to: bigint) => {
    if (from < 0n || to < 0n) throw celError(`cannot slice(${from}, ${to}), negative indexes not supported`);
    if (from > to) throw celError(`cannot slice(${from}, ${to}), start index must be less than or equal to end index`);
    if (to > BigInt(list.length)) throw celError(`cannot slice(${from}, ${to}), list is length ${list.length}`);
    return list.slice(Number(from), Number(to));
  });
  env.registerFunction('list.flatten(): list', (list: unknown[]) => flatten(list, 1n));
  env.registerFunction('list.flatten(int): list', flatten);
  const lists = registerNamespace(env, 'lists');
  env.registerFunction(`${lists}.range(int): list<int>`, (_: unknown, n: bigint) =>
    Array.from({ length: Math.max(0, Number(n)) }, (_x, i) => BigInt(i)),
  );
  env.registerFunction('list.distinct(): list', (list: unknown[]) => list.filter((x, i) => list.findIndex((y) => celEquals(x, y)) === i));
  env.registerFunction('list.reverse(): list', (list: unknown[]) => [...list].reverse());
  env.registerFunction('list.sort(): list', (list: Comparable[]) => [...list].sort(compare));
  env.registerFunction('list.sortBy(ast, ast): list', sortByMacro as never);
}
