/**
 * Two-way JSON merge patch (RFC 7386), what controller-runtime's `MergeFrom` sends: the smallest
 * patch that turns `oldObj` into `newObj` — changed and added keys with their new values, removed keys
 * as `null`, arrays replaced whole. With `optimisticLock` the patch also carries the old
 * `metadata.resourceVersion`, so the server answers 409 Conflict if the object moved meanwhile.
 * Invariant: applying the result to `oldObj` with RFC 7386 yields `newObj` (with the lock, plus the
 * old resourceVersion).
 */
import { InvalidOptionError, jsonEqual } from '../meta/index.js';
import { isJsonObject } from '../meta/internal.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function diff(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const k of Object.keys(a)) {
    if (b[k] === undefined && a[k] !== undefined) patch[k] = null;
  }
  for (const k of Object.keys(b)) {
    const nv = b[k];
    if (nv === undefined) continue;
    const ov = a[k];
    if (isJsonObject(ov) && isJsonObject(nv)) {
      const sub = diff(ov, nv);
      if (Object.keys(sub).length > 0) patch[k] = sub;
    } else if (!jsonEqual(ov, nv)) {
      patch[k] = nv;
    }
  }
  return patch;
}

/** Options of `createMergePatch`, such as carrying the old resourceVersion for optimistic locking. */
export interface MergePatchOptions {
  /** Put the old object's `metadata.resourceVersion` in the patch (the server then rejects stale writes with 409). */
  optimisticLock?: boolean;
}

/** The RFC 7386 merge patch from `oldObj` to `newObj` (an empty object when they are equal). */
export function createMergePatch(oldObj: object, newObj: object, { optimisticLock = false }: MergePatchOptions = {}): Record<string, Json> {
  const patch = diff(oldObj as Record<string, unknown>, newObj as Record<string, unknown>);
  if (optimisticLock) {
    const rv = (oldObj as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
    if (!rv) throw new InvalidOptionError('optimisticLock', 'the old object has no metadata.resourceVersion');
    const meta = isJsonObject(patch['metadata']) ? patch['metadata'] : {};
    patch['metadata'] = { ...meta, resourceVersion: rv };
  }
  return patch as Record<string, Json>;
}
