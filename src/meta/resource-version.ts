/**
 * Ordering of resourceVersions, as apimachinery's `CompareResourceVersion` defines it (comparable
 * resource versions, stable in Kubernetes 1.35): two versions of objects of one resource compare as
 * the positive decimal integers they are, of any length. Invariant: anything that is not such an
 * integer (zero, a leading zero, another character, an empty string) is not comparable, and the
 * answer says so rather than guessing an order.
 */

const COMPARABLE = /^[1-9][0-9]*$/;

/** -1, 0 or 1 as `a` is older than, the same as, or newer than `b`; undefined when either is not comparable. */
export function compareResourceVersion(a: string, b: string): -1 | 0 | 1 | undefined {
  if (!COMPARABLE.test(a) || !COMPARABLE.test(b)) return undefined;
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}
