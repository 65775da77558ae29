/**
 * JSON value helpers shared by the patch algorithms: type guards, deep equality and deep copy of
 * decoded JSON. Patches never mutate their inputs; every algorithm copies what it keeps.
 */

export type JsonObject = { [key: string]: unknown };

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep equality over decoded JSON (key order does not matter, array order does). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** Deep copy of decoded JSON. */
export function jsonClone<T>(v: T): T {
  return v === undefined ? v : structuredClone(v);
}
