/**
 * Small helpers over decoded JSON shared by pruning, defaulting and validation (the object guard and
 * equality are meta's `isJsonObject` and `jsonEqual`, re-exported for the schema's files).
 */
export { isJsonObject } from '../../meta/internal.js';
export type { JsonObject } from '../../meta/internal.js';

/** The OpenAPI type name of a decoded JSON value; whole numbers are `integer`. */
export function jsonTypeOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v;
}
