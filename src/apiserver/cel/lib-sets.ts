/**
 * The sets library (cel-go's sets extension, which kube-apiserver enables): `sets.contains(a, b)`
 * (every element of `b` is in `a`), `sets.equivalent(a, b)` (each contains the other, duplicates
 * and order aside) and `sets.intersects(a, b)` (one element in common), under CEL equality.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celEquals } from './equality.js';
import { registerNamespace } from './namespace.js';

const has = (list: unknown[], x: unknown): boolean => list.some((y) => celEquals(x, y));
const contains = (a: unknown[], b: unknown[]): boolean => b.every((x) => has(a, x));

export function registerSets(env: Environment): void {
  const sets = registerNamespace(env, 'sets');
  env.registerFunction(`${sets}.contains(list, list): bool`, (_: unknown, a: unknown[], b: unknown[]) => contains(a, b));
  env.registerFunction(
    `${sets}.equivalent(list, list): bool`,
    (_: unknown, a: unknown[], b: unknown[]) => contains(a, b) && contains(b, a),
  );
  env.registerFunction(`${sets}.intersects(list, list): bool`, (_: unknown, a: unknown[], b: unknown[]) => a.some((x) => has(b, x)));
}
