/**
 * The JSON patch (RFC 6902) that turns one JSON document into another, as a mutating webhook answers
 * with it: objects are compared member by member, so a defaulter that sets one field yields one `add`;
 * arrays of equal length are compared element by element, other arrays are replaced whole (always
 * correct, and what a defaulter rarely causes). Invariant: applying the result to `before` gives a
 * document `jsonEqual` to `after`; equal documents give an empty patch.
 */
import { jsonEqual } from '../meta/index.js';
import { isJsonObject } from '../meta/internal.js';

/** One operation of the patches this module makes (only `add`, `remove`, `replace` are needed). @extension */
export interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace';
  path: string;
  value?: unknown;
}

const escapeToken = (t: string): string => t.replace(/~/g, '~0').replace(/\//g, '~1');
/** An own member only: `b.__proto__` of a `b` without that member is the prototype, not JSON. */
const member = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

/** The operations that make `before` into `after` (both JSON values). @extension */
export function createJsonPatch(before: unknown, after: unknown): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [];
  diff(before, after, '', ops);
  return ops;
}

function diff(a: unknown, b: unknown, path: string, ops: JsonPatchOp[]): void {
  if (jsonEqual(a, b)) return;
  if (isJsonObject(a) && isJsonObject(b)) {
    for (const k of Object.keys(a)) {
      if (a[k] !== undefined && member(b, k) === undefined) ops.push({ op: 'remove', path: `${path}/${escapeToken(k)}` });
    }
    for (const k of Object.keys(b)) {
      if (b[k] === undefined) continue;
      const p = `${path}/${escapeToken(k)}`;
      if (member(a, k) === undefined) ops.push({ op: 'add', path: p, value: b[k] });
      else diff(a[k], b[k], p, ops);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diff(x, b[i], `${path}/${i}`, ops));
    return;
  }
  ops.push({ op: 'replace', path, value: b });
}
