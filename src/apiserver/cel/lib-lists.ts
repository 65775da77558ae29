/**
 * The Kubernetes lists library (`isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`) and the
 * cel-go lists extension kube-apiserver enables (`slice`, `flatten`, `distinct`, `reverse`,
 * `sort`). Comparisons follow CEL ordering for the element types a schema can declare.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from './errors.js';
import { celEquals } from './equality.js';

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
  env.registerFunction('list.slice(int, int): list', (list: unknown[], from: bigint, to: bigint) => {
    if (from < 0n || to < 0n) throw celError(`cannot slice(${from}, ${to}), negative indexes not supported`);
    if (from > to) throw celError(`cannot slice(${from}, ${to}), start index must be less than or equal to end index`);
    if (to > BigInt(list.length)) throw celError(`cannot slice(${from}, ${to}), list is length ${list.length}`);
    return list.slice(Number(from), Number(to));
  });
  env.registerFunction('list.flatten(): list', (list: unknown[]) => list.flatMap((x) => (Array.isArray(x) ? x : [x])));
  env.registerFunction('list.distinct(): list', (list: unknown[]) => list.filter((x, i) => list.findIndex((y) => celEquals(x, y)) === i));
  env.registerFunction('list.reverse(): list', (list: unknown[]) => [...list].reverse());
  env.registerFunction('list.sort(): list', (list: Comparable[]) => [...list].sort(compare));
}
