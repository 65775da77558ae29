/**
 * Writes an ApiKey's finalizer list. Invariant: the patch carries the resourceVersion the list was
 * computed from, so a stale cache or a concurrent writer gets a 409 Conflict (and a retry) instead of
 * overwriting someone else's finalizer.
 */
import { clone, namespacedNameOf } from 'kube-converge/meta';
import type { ManagerClient } from 'kube-converge/manager';
import { ApiKey, type ApiKeyObject } from '../api/apikey.js';

/** Writes the finalizer list `change` made, guarded by the resourceVersion it was computed from (409 if stale). */
export function patchFinalizers(
  client: ManagerClient,
  apiKey: ApiKeyObject,
  change: (k: ApiKeyObject) => boolean,
  signal: AbortSignal,
): Promise<ApiKeyObject> {
  const copy = clone(apiKey) as ApiKeyObject;
  change(copy);
  const patch = { metadata: { finalizers: copy.metadata.finalizers ?? [], resourceVersion: apiKey.metadata.resourceVersion } };
  return client.patch(ApiKey, namespacedNameOf(apiKey), patch, 'merge', { signal });
}
