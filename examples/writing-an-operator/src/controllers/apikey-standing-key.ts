/**
 * Whether an ApiKey's current key still stands, read from its status and its Secret. Invariant: it
 * answers from what it is given, so the reconciler can ask the cache first and live reads second.
 */
import type { Secret } from 'kubernetes-types/core/v1.js';
import { findStatusCondition } from 'kube-converge/meta';
import type { ApiKeyObject } from '../api/apikey.js';

/**
 * When the current key was issued, if it still stands: the Secret holds it, it was issued for this
 * very spec (Ready=True written for this generation) and it is younger than the rotation period.
 * Undefined when a new key is due.
 */
export function standingKeyIssuedAt(apiKey: ApiKeyObject, secret: Secret | undefined, rotationMs: number, now: number): number | undefined {
  const ready = findStatusCondition(apiKey.status?.conditions, 'Ready');
  const rotatedAt = apiKey.status?.rotatedAt;
  if (secret?.data?.['token'] === undefined || rotatedAt === undefined) return undefined;
  if (ready?.status !== 'True' || ready.observedGeneration !== apiKey.metadata.generation) return undefined;
  const issuedAt = Date.parse(rotatedAt);
  return now < issuedAt + rotationMs ? issuedAt : undefined;
}
