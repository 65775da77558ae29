/**
 * How an informer's store seals the objects it keeps: deep-frozen in tests and development, and in
 * production not frozen but sharing what it can: the parts equal to the version the store already
 * holds, and the empty objects of managedFields. Both are the cache's policy, not meta's vocabulary,
 * so they live here and stay off the faces. Invariant: an object sealed either way holds the same
 * JSON values as it was decoded with; only frozenness and the identity of its subobjects differ.
 */

/** The one frozen `{}` that stands for every empty object below a managedFields entry's `fieldsV1`. */
const EMPTY: object = Object.freeze({});

/**
 * Whether a cache deep-freezes the objects it stores when its options do not say: yes, unless
 * `NODE_ENV` is `production`. Freezing is how tests and development catch a write to a cached object
 * (it throws instead of corrupting every reader's view), so production, running the same code, need
 * not pay for the freeze walk, a runtime call per nested object of every event (React's
 * development-only freeze of props is the same trade).
 */
export function freezeByDefault(): boolean {
  return process.env['NODE_ENV'] !== 'production';
}

/**
 * What production caches do with a new version of an object instead of `deepFreezeFresh`: in its
 * `spec` and `status`, every object or array equal (same JSON at the same path) to the one in
 * `stored`, the version the store holds, is replaced by the stored one; then managedFields' empty
 * objects are shared (`shareEmptyManagedFields`); nothing is frozen. An update usually changes a few
 * fields of a large object (a status update leaves the spec alone); without this, the unchanged
 * parts are fresh copies that live as long as the cache keeps them, and with 10 KiB Pods the
 * collector's copying and promoting them cost more than decoding them. The comparison reads the
 * stored version, which costs more than it saves on small objects, so it is limited to `spec` and
 * `status`: a ConfigMap pays two property reads. Handlers may then see `old.spec === obj.spec` when
 * the spec did not change.
 */
export function shareWithStored<T extends { metadata?: { managedFields?: unknown } }>(raw: T, stored: T | undefined): T {
  if (stored !== undefined) {
    const r = raw as Record<string, unknown>;
    const q = stored as Record<string, unknown>;
    // Written out rather than looped over a list of names: with no spec or status (a ConfigMap) this is all it costs.
    if (typeof r['spec'] === 'object' && typeof q['spec'] === 'object') adoptMember(r, q, 'spec');
    if (typeof r['status'] === 'object' && typeof q['status'] === 'object') adoptMember(r, q, 'status');
  }
  return shareEmptyManagedFields(raw);
}

/** Puts `stored[k]` in place of `raw[k]` when they are the same JSON, else adopts what is equal below. */
function adoptMember(raw: Record<string, unknown>, stored: Record<string, unknown>, k: string): void {
  const n = raw[k];
  const p = stored[k];
  if (n !== null && p !== null && n !== p && adopt(n as object, p as object) === p && !Object.isFrozen(raw)) raw[k] = p;
}

/**
 * Returns `prev` when `next` is deep-equal to it, else `next` with each of its object or array members
 * that is deep-equal to `prev`'s at the same key (or index) replaced by `prev`'s. Only plain objects
 * and arrays are compared; once `next` is known to differ, its primitive members are no longer compared.
 */
function adopt(next: object, prev: object): object {
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next;
    let same = next.length === prev.length;
    let writable: boolean | undefined;
    for (let i = 0; i < next.length; i++) {
      const n: unknown = next[i];
      const p: unknown = prev[i];
      if (typeof n === 'object' && n !== null) {
        if (n === p) continue;
        if (typeof p === 'object' && p !== null && adopt(n, p) === p && (writable ??= !Object.isFrozen(next))) next[i] = p;
        else same = false;
      } else if (same && n !== p) same = false;
    }
    return same ? prev : next;
  }
  if (Array.isArray(prev) || Object.getPrototypeOf(next) !== Object.prototype || Object.getPrototypeOf(prev) !== Object.prototype)
    return next;
  const r = next as Record<string, unknown>;
  const q = prev as Record<string, unknown>;
  let same = true;
  let count = 0;
  let writable: boolean | undefined;
  for (const k in r) {
    count++;
    const n = r[k];
    if (typeof n === 'object' && n !== null) {
      const p = q[k];
      if (n === p) continue;
      if (typeof p === 'object' && p !== null && k !== '__proto__' && adopt(n, p) === p && (writable ??= !Object.isFrozen(r))) r[k] = p;
      else same = false;
    } else if (same && (n !== q[k] || (n === undefined && !Object.hasOwn(q, k)))) same = false;
  }
  if (!same) return next;
  // Every key of `next` is in `prev` with an equal value; equal if `prev` has no other key.
  for (const _ in q) if (--count < 0) return next;
  return count === 0 ? prev : next;
}

/**
 * The empty objects of `metadata.managedFields[*].fieldsV1` (some hundred per entry, `"f:name":{}`)
 * are replaced by the one shared frozen `{}`, and nothing is frozen. Those empty objects are most of
 * what a cached object with managedFields holds beyond its JSON.parse result; the walk covers only
 * that subtree, so an object without managedFields (the manager drops them by default) costs one
 * property read.
 */
export function shareEmptyManagedFields<T extends { metadata?: { managedFields?: unknown } }>(obj: T): T {
  const entries = obj.metadata?.managedFields;
  if (!Array.isArray(entries)) return obj;
  for (const e of entries as unknown[]) {
    const fields = typeof e === 'object' && e !== null ? (e as { fieldsV1?: unknown }).fieldsV1 : undefined;
    if (typeof fields === 'object' && fields !== null && fields !== EMPTY) shareEmpties(fields);
  }
  return obj;
}

/**
 * Replaces every empty plain object below `o` by `EMPTY`; returns whether `o` itself is one. Only
 * `EMPTY` is skipped, not every frozen object, and whether `o` can be written is asked only once one
 * of its members is to be replaced: a call per member was a tenth of the walk.
 */
function shareEmpties(o: object): boolean {
  const r = o as Record<string, unknown>;
  let empty = true;
  let writable: boolean | undefined;
  for (const k in r) {
    empty = false;
    const v = r[k];
    if (
      typeof v === 'object' &&
      v !== null &&
      v !== EMPTY &&
      !Array.isArray(v) &&
      shareEmpties(v) &&
      k !== '__proto__' &&
      (writable ??= !Object.isFrozen(r))
    )
      r[k] = EMPTY;
  }
  return empty && Object.getPrototypeOf(o) === Object.prototype;
}
