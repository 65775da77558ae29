/**
 * An ApiKey's status: computed with its `Ready` condition, and written only when it changed.
 * Invariant: a status recomputed from the same state comes out the same, so it causes no write, no
 * watch event and no further reconcile.
 */
import { namespacedNameOf, setStatusCondition, type NewCondition } from 'kube-converge/meta';
import { createMergePatch } from 'kube-converge/client';
import type { ManagerClient } from 'kube-converge/manager';
import { ApiKey, type ApiKeyObject, type ApiKeyStatus } from '../api/apikey.js';

/** The status with `fields` and the `Ready` condition, both stamped with the generation they describe. */
export function withReady(
  apiKey: ApiKeyObject,
  fields: Pick<ApiKeyStatus, 'secretName' | 'rotatedAt'>,
  ready: Omit<NewCondition, 'type' | 'observedGeneration'>,
  now: number,
): ApiKeyStatus {
  const observedGeneration = apiKey.metadata.generation ?? 0;
  const conditions = structuredClone(apiKey.status?.conditions ?? []);
  setStatusCondition(conditions, { type: 'Ready', ...ready, observedGeneration }, now);
  return { ...apiKey.status, ...fields, observedGeneration, conditions };
}

/** Writes the status through the status subresource, only when it changed (no write, no event, no loop). */
export async function writeStatus(client: ManagerClient, apiKey: ApiKeyObject, status: ApiKeyStatus, signal: AbortSignal): Promise<void> {
  if (Object.keys(createMergePatch({ status: apiKey.status ?? {} }, { status })).length === 0) return;
  const patch = { metadata: { resourceVersion: apiKey.metadata.resourceVersion }, status };
  await client.status().patch(ApiKey, namespacedNameOf(apiKey), patch, 'merge', { signal });
}
