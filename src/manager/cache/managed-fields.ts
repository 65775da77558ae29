/**
 * The cache drops `metadata.managedFields` by default. Server-side apply records, on every object, which
 * manager owns which field: a tree of small objects that is often the largest part of a Pod or a
 * Deployment as a cluster returns it, and that reconcilers almost never read (controller-runtime users
 * strip it by hand with a cache transform). Reads from the API server (`apiReader`) still carry it.
 *
 * Invariant: unless a kind's options say `keepManagedFields: true`, no object the cache stores has
 * `managedFields`, whatever transform the options add: the user's transform runs after the strip, on
 * an object that no longer has them.
 */
import type { KubeObject } from '../../meta/index.js';

type Transform = (obj: KubeObject) => KubeObject;

/** The standard transform: drops `metadata.managedFields`, which controllers rarely read and which dominates memory. */
export function stripManagedFields(obj: KubeObject): KubeObject {
  if (obj.metadata?.managedFields !== undefined) delete obj.metadata.managedFields;
  return obj;
}

/** The transform a kind's informer applies: the strip (unless kept), then the options' own transform. */
export function cacheTransform(o: { transform?: Transform; keepManagedFields?: boolean }): Transform | undefined {
  const own = o.transform;
  if (o.keepManagedFields === true) return own;
  if (own === undefined || own === stripManagedFields) return stripManagedFields;
  return (obj) => own(stripManagedFields(obj));
}
