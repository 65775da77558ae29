/**
 * Deep equality of JSON-shaped values: the one equality the server (no-op writes, immutable fields, patch `test`, schema `enum`) and clients
 * (diffing desired against observed) agree on. Invariant: object key order never matters, array
 * order always does; a member whose value is `undefined` equals an absent member (JSON has no
 * `undefined`, and `JSON.stringify` drops it); scalars compare with `===` (so `1` and `"1"` differ,
 * `0` and `-0` are equal); only own properties count, so `constructor` is just another key.
 */

import { isJsonObject } from './json-object.js';

/** The own keys of `o` that JSON would write. */
const definedKeys = (o: Record<string, unknown>): string[] => Object.keys(o).filter((k) => o[k] !== undefined);

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const ka = definedKeys(a);
  if (ka.length !== definedKeys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}
