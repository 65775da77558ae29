/**
 * How an informer's store seals the objects it keeps: deep-frozen in tests and development, and in
 * production only with the empty objects of managedFields shared. Both are the cache's policy, not
 * meta's vocabulary, so they live here and stay off the faces. Invariant: an object sealed either way
 * holds the same JSON values as it was decoded with; only frozenness and the identity of empty
 * `fieldsV1` objects differ.
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
 * What production caches do instead of `deepFreezeFresh`: only the empty objects of
 * `metadata.managedFields[*].fieldsV1` (some hundred per entry, `"f:name":{}`) are replaced by the one
 * shared frozen `{}`, and nothing is frozen. Those empty objects are most of what a cached object with
 * managedFields holds beyond its JSON.parse result; the walk covers only that subtree, so an object
 * without managedFields (the manager drops them by default) costs one property read.
 */
export function shareEmptyManagedFields<T extends { metadata?: { managedFields?: unknown } }>(obj: T): T {
  const entries = obj.metadata?.managedFields;
  if (!Array.isArray(entries)) return obj;
  for (const e of entries as unknown[]) {
    const fields = typeof e === 'object' && e !== null ? (e as { fieldsV1?: unknown }).fieldsV1 : undefined;
    if (typeof fields === 'object' && fields !== null && !Object.isFrozen(fields)) shareEmpties(fields);
  }
  return obj;
}

/** Replaces every empty plain object below `o` by `EMPTY`; returns whether `o` itself is one. */
function shareEmpties(o: object): boolean {
  const r = o as Record<string, unknown>;
  let empty = true;
  for (const k in r) {
    empty = false;
    const v = r[k];
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.isFrozen(v) && shareEmpties(v) && k !== '__proto__')
      r[k] = EMPTY;
  }
  return empty && Object.getPrototypeOf(o) === Object.prototype;
}
