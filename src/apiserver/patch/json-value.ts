/**
 * JSON value helpers shared by the patch algorithms: deep copy of decoded JSON, beside meta's object
 * guard (`isJsonObject`, re-exported for the patch files) and equality (`jsonEqual`). Patches never
 * mutate their inputs; every algorithm copies what it keeps.
 */
export { isJsonObject } from '../../meta/internal.js';
export type { JsonObject } from '../../meta/internal.js';

/** Deep copy of decoded JSON. */
export function jsonClone<T>(v: T): T {
  return v === undefined ? v : structuredClone(v);
}
