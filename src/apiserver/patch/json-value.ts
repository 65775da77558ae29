/**
 * JSON value helpers shared by the patch algorithms: type guards and deep copy of decoded JSON
 * (equality is meta's `jsonEqual`). Patches never mutate their inputs; every algorithm copies what it keeps.
 */

export type JsonObject = { [key: string]: unknown };

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep copy of decoded JSON. */
export function jsonClone<T>(v: T): T {
  return v === undefined ? v : structuredClone(v);
}
