/**
 * Cost and size ranges as cel-go's checker keeps them (`CostEstimate`, `SizeEstimate`): a minimum
 * and a maximum, both unsigned 64-bit counts that saturate at the largest one instead of
 * overflowing, and factors that round up. A value whose size nothing bounds is `UNKNOWN`.
 */

/** The largest uint64, where every sum and product stops. */
export const MAX_UINT64 = 2 ** 64;

export interface Range {
  readonly min: number;
  readonly max: number;
}

export const fixed = (n: number): Range => ({ min: n, max: n });
export const ZERO: Range = fixed(0);
export const ONE: Range = fixed(1);
export const UNKNOWN: Range = { min: 0, max: MAX_UINT64 };

const saturate = (n: number): number => (n >= MAX_UINT64 ? MAX_UINT64 : n);

export const add = (a: Range, b: Range): Range => ({ min: saturate(a.min + b.min), max: saturate(a.max + b.max) });
export const sumOf = (rs: readonly Range[]): Range => rs.reduce(add, ZERO);
export const multiply = (a: Range, b: Range): Range => ({ min: saturate(a.min * b.min), max: saturate(a.max * b.max) });
export const union = (a: Range, b: Range): Range => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });

/** `n × factor`, rounded up (cel-go's `multiplyByCostFactor`). */
const byFactor = (n: number, factor: number): number => saturate(Math.ceil(n * factor));
export const times = (r: Range, factor: number): Range => ({ min: byFactor(r.min, factor), max: byFactor(r.max, factor) });
