/**
 * controllerutil's `createOrUpdate` and `createOrPatch`: read the object (from the cache), let
 * `mutate` bring a mutable copy to the desired state, and write only if something changed. Both
 * survive cache lag: when the cache has not seen an object that exists (AlreadyExists on create),
 * they re-read it from the API server and continue with the update path, so a reconciler re-run
 * before its own write reached the cache never fails on — or duplicates — a child. An update from a
 * stale copy fails with 409 Conflict, which the controller retries.
 *
 * Invariant: no write when `mutate` changed nothing (`'unchanged'`); `mutate` may not change the
 * object's name or namespace.
 */
import {
  InvalidOptionError,
  clone,
  jsonEqual,
  namespacedNameOf,
  type KubeObject,
  type NamespacedName,
  type ResourceDescriptor,
} from '../../meta/index.js';
import { createMergePatch, isAlreadyExists } from '../../client/index.js';
import type { ManagerClient } from '../cache/index.js';

/** What `createOrUpdate` or `createOrPatch` did to the object. */
export type OperationResult = 'created' | 'updated' | 'updatedStatus' | 'updatedStatusOnly' | 'unchanged';

/** Brings `obj` (a mutable copy of the current or the initial object) to the desired state. */
export type MutateFn<T> = (obj: T) => void | Promise<void>;

/** What `createOrUpdate` or `createOrPatch` did, and the object as it now is. */
export interface CreateOrUpdateOutcome<T> {
  result: OperationResult;
  /** The object as the server answered (or as cached, when unchanged). */
  object: T;
}

type Writer = Pick<ManagerClient, 'get' | 'create' | 'update' | 'patch' | 'status' | 'apiReader'>;

async function mutated<T extends KubeObject>(base: T, key: NamespacedName, mutate: MutateFn<T>): Promise<T> {
  const working = clone(base) as T;
  await mutate(working);
  const after = namespacedNameOf(working);
  if (after.name !== key.name || (after.namespace ?? '') !== (key.namespace ?? '')) {
    throw new InvalidOptionError('mutate', 'MutateFn cannot mutate object name and/or object namespace');
  }
  return working;
}

/** The current object: from the cache, or (when the cache has not caught up) from the server. */
async function current<T extends KubeObject>(
  client: Writer,
  resource: ResourceDescriptor<T>,
  obj: T,
  key: NamespacedName,
  mutate: MutateFn<T>,
  signal: AbortSignal | undefined,
): Promise<{ created: T } | { existing: T }> {
  const cached = client.get(resource, key);
  if (cached) return { existing: cached };
  const desired = await mutated(obj, key, mutate);
  try {
    return { created: await client.create(resource, desired, { signal }) };
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    return { existing: await client.apiReader.get(resource, key, { signal }) };
  }
}

/**
 * Creates `obj` (after `mutate`) if it does not exist, otherwise applies `mutate` to a copy of the
 * current object and updates it when it changed. `obj` needs only its name and namespace on the
 * update path.
 */
export async function createOrUpdate<T extends KubeObject>(
  client: Writer,
  resource: ResourceDescriptor<T>,
  obj: T,
  mutate: MutateFn<T>,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<CreateOrUpdateOutcome<T>> {
  const key = namespacedNameOf(obj);
  const found = await current(client, resource, obj, key, mutate, options.signal);
  if ('created' in found) return { result: 'created', object: found.created };
  const desired = await mutated(found.existing, key, mutate);
  if (jsonEqual(found.existing, desired)) return { result: 'unchanged', object: found.existing };
  return { result: 'updated', object: await client.update(resource, desired, { signal: options.signal }) };
}

/**
 * Like `createOrUpdate`, but writes merge patches: one for everything outside `status`, one to the
 * status subresource for `status`. The result says which were sent: `updated`, `updatedStatus`
 * (both), `updatedStatusOnly`.
 */
export async function createOrPatch<T extends KubeObject>(
  client: Writer,
  resource: ResourceDescriptor<T>,
  obj: T,
  mutate: MutateFn<T>,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<CreateOrUpdateOutcome<T>> {
  const key = namespacedNameOf(obj);
  const signal = options.signal;
  const found = await current(client, resource, obj, key, mutate, signal);
  if ('created' in found) return { result: 'created', object: found.created };
  const before = found.existing;
  const desired = await mutated(before, key, mutate);
  const { status: statusBefore, ...restBefore } = before;
  const { status: statusAfter, ...restAfter } = desired;
  const mainPatch = createMergePatch(restBefore, restAfter);
  const statusPatch = createMergePatch({ status: statusBefore }, { status: statusAfter });
  const mainChanged = Object.keys(mainPatch).length > 0;
  const statusChanged = Object.keys(statusPatch).length > 0;
  let object = before;
  if (mainChanged) object = await client.patch(resource, key, mainPatch, 'merge', { signal });
  if (statusChanged) object = await client.status().patch(resource, key, statusPatch, 'merge', { signal });
  const result: OperationResult = mainChanged
    ? statusChanged
      ? 'updatedStatus'
      : 'updated'
    : statusChanged
      ? 'updatedStatusOnly'
      : 'unchanged';
  return { result, object };
}
