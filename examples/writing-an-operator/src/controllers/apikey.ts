/**
 * The ApiKey controller of the step-by-step guide (docs/writing-an-operator.md): every ApiKey gets a
 * key from the external issuer, kept in a Secret it controls and rotated every `rotationMinutes` of its
 * namespace's policy ConfigMap; deleting the ApiKey revokes the key first (a finalizer). Every event —
 * the ApiKey, its Secret, the policy — maps to the ApiKey's key, and one reconcile converges it all.
 *
 * Invariants: a key is issued only when live reads (not just the cache) agree that the Secret lacks
 * it, that no key was issued for the spec's current generation, or that the rotation is due; the
 * status says which generation it describes; a spec or policy that no retry can fix ends in a
 * TerminalError after saying why in the `Ready` condition.
 */
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1.js';
import {
  ConfigMapResource, SecretResource, clone, findStatusCondition, formatTimestamp, keyOf, namespacedNameOf, setStatusCondition,
  type Clock, type KubeObject, type NewCondition, type ObjectOf,
} from 'kube-converge/meta';
import { createMergePatch, ignoreNotFound } from 'kube-converge/client';
import {
  TerminalError, controllerManagedBy, enqueueRequestsFromMapFunc, requestFor, type Request, type Result,
} from 'kube-converge/controller';
import {
  addFinalizer, containsFinalizer, createOrPatch, removeFinalizer, setControllerReference, type Manager, type ManagerClient,
} from 'kube-converge/manager';
import { UnknownServiceError, type KeyIssuer } from './issuer.js';
import { ApiKey, DEFAULT_ROTATION_MINUTES, POLICY_CONFIGMAP, REVOKE_FINALIZER, type ApiKeyStatus } from './types.js';

type ApiKeyObject = ObjectOf<typeof ApiKey>;

export interface ApiKeyControllerOptions {
  /** Where keys are issued and revoked. */
  issuer: KeyIssuer;
}

/** Registers the ApiKey controller on `mgr`. Call before `mgr.start()`. */
export function setupApiKeyController(mgr: Manager, options: ApiKeyControllerOptions): void {
  // A change to a namespace's policy concerns every ApiKey in that namespace (read from the cache).
  const keysUnderPolicy = (cm: ConfigMap & KubeObject): Request[] =>
    cm.metadata.name === POLICY_CONFIGMAP ? mgr.client.list(ApiKey, { namespace: cm.metadata.namespace }).map(requestFor) : [];

  controllerManagedBy(mgr)
    .for(ApiKey) // an ApiKey changed: reconcile it
    .owns(SecretResource) // a Secret it controls changed or vanished: reconcile its ApiKey
    .watches(ConfigMapResource, enqueueRequestsFromMapFunc(keysUnderPolicy))
    .complete((req, { client, signal }) => reconcileApiKey(req, client, options.issuer, mgr.clock, signal));
}

async function reconcileApiKey(req: Request, client: ManagerClient, issuer: KeyIssuer, clock: Clock, signal: AbortSignal): Promise<Result | void> {
  const cached = client.get(ApiKey, req); // from the cache: frozen, no network; undefined once deleted
  if (!cached) return; // gone, and its Secret with it (owner reference)

  if (cached.metadata.deletionTimestamp) {
    // The API server keeps a deleted object while it has finalizers: revoke, then let it go.
    if (containsFinalizer(cached, REVOKE_FINALIZER)) {
      await issuer.revoke(keyOf(req)); // a failure throws: retried with backoff, the finalizer stays
      await patchFinalizers(client, cached, (k) => removeFinalizer(k, REVOKE_FINALIZER), signal);
    }
    return;
  }
  // The finalizer goes on before the first key exists, so no key can outlive its ApiKey.
  const apiKey = containsFinalizer(cached, REVOKE_FINALIZER)
    ? cached
    : await patchFinalizers(client, cached, (k) => addFinalizer(k, REVOKE_FINALIZER), signal);

  /** Says why in `Ready`, then stops retrying: only a new spec or policy (a new event) can help. */
  const giveUp = async (latest: ApiKeyObject, reason: string, message: string): Promise<never> => {
    await writeStatus(client, latest, withReady(latest, {}, { status: 'False', reason, message }, clock.now()), signal);
    throw new TerminalError(message);
  };

  const policy = client.get(ConfigMapResource, { ...req, name: POLICY_CONFIGMAP });
  const minutes = Number(policy?.data?.['rotationMinutes'] ?? DEFAULT_ROTATION_MINUTES);
  if (!Number.isInteger(minutes) || minutes < 1) {
    const got = JSON.stringify(policy?.data?.['rotationMinutes']);
    return giveUp(apiKey, 'InvalidPolicy', `ConfigMap ${POLICY_CONFIGMAP}: rotationMinutes must be a whole number ≥ 1, got ${got}`);
  }
  const rotationMs = minutes * 60_000;

  const secretName = `${req.name}-apikey`;
  const secretRef = { ...req, name: secretName };
  const now = clock.now();
  let latest = apiKey;
  let issuedAt = standingKeyIssuedAt(latest, client.get(SecretResource, secretRef), rotationMs, now);
  if (issuedAt === undefined) {
    // Issuing is not idempotent and the cache may not show our last writes yet: confirm with live
    // reads, or a lagging cache would rotate the key twice.
    latest = await client.apiReader.get(ApiKey, req, { signal });
    const liveSecret = await client.apiReader.get(SecretResource, secretRef, { signal }).catch(ignoreNotFound);
    issuedAt = standingKeyIssuedAt(latest, liveSecret, rotationMs, now);
  }

  if (issuedAt === undefined) {
    let token: string;
    try {
      token = await issuer.issue(keyOf(req), latest.spec.service);
    } catch (err) {
      if (err instanceof UnknownServiceError) return giveUp(latest, 'UnknownService', err.message);
      throw err; // the issuer is unreachable, say: retried with backoff
    }
    // Reads the Secret (cache), lets us change a copy, and writes only if something changed.
    await createOrPatch(client, SecretResource, { metadata: secretRef }, (s) => {
      setControllerReference(latest, s); // garbage-collected with the ApiKey; its events map back to it
      s.data = { token: Buffer.from(token).toString('base64') };
    }, { signal });
    issuedAt = now;
  }

  const message = `key for ${latest.spec.service} in Secret ${secretName}, rotated every ${minutes} min`;
  const status = withReady(latest, { secretName, rotatedAt: formatTimestamp(issuedAt) }, { status: 'True', reason: 'KeyIssued', message }, now);
  await writeStatus(client, latest, status, signal);
  return { requeueAfter: issuedAt + rotationMs - now }; // wakes up when the next rotation is due
}

/**
 * When the current key was issued, if it still stands: the Secret holds it, it was issued for this
 * very spec (Ready=True written for this generation) and it is younger than the rotation period.
 * Undefined when a new key is due.
 */
function standingKeyIssuedAt(apiKey: ApiKeyObject, secret: Secret | undefined, rotationMs: number, now: number): number | undefined {
  const ready = findStatusCondition(apiKey.status?.conditions, 'Ready');
  const rotatedAt = apiKey.status?.rotatedAt;
  if (secret?.data?.['token'] === undefined || rotatedAt === undefined) return undefined;
  if (ready?.status !== 'True' || ready.observedGeneration !== apiKey.metadata.generation) return undefined;
  const issuedAt = Date.parse(rotatedAt);
  return now < issuedAt + rotationMs ? issuedAt : undefined;
}

/** Writes the finalizer list `change` made, guarded by the resourceVersion it was computed from (409 if stale). */
function patchFinalizers(
  client: ManagerClient, apiKey: ApiKeyObject, change: (k: ApiKeyObject) => boolean, signal: AbortSignal,
): Promise<ApiKeyObject> {
  const copy = clone(apiKey) as ApiKeyObject;
  change(copy);
  const patch = { metadata: { finalizers: copy.metadata.finalizers ?? [], resourceVersion: apiKey.metadata.resourceVersion } };
  return client.patch(ApiKey, namespacedNameOf(apiKey), patch, 'merge', { signal });
}

/** The status with `fields` and the `Ready` condition, both stamped with the generation they describe. */
function withReady(
  apiKey: ApiKeyObject, fields: Pick<ApiKeyStatus, 'secretName' | 'rotatedAt'>, ready: Omit<NewCondition, 'type' | 'observedGeneration'>, now: number,
): ApiKeyStatus {
  const observedGeneration = apiKey.metadata.generation ?? 0;
  const conditions = structuredClone(apiKey.status?.conditions ?? []);
  setStatusCondition(conditions, { type: 'Ready', ...ready, observedGeneration }, now);
  return { ...apiKey.status, ...fields, observedGeneration, conditions };
}

/** Writes the status through the status subresource, only when it changed (no write, no event, no loop). */
async function writeStatus(client: ManagerClient, apiKey: ApiKeyObject, status: ApiKeyStatus, signal: AbortSignal): Promise<void> {
  if (Object.keys(createMergePatch({ status: apiKey.status ?? {} }, { status })).length === 0) return;
  const patch = { metadata: { resourceVersion: apiKey.metadata.resourceVersion }, status };
  await client.status().patch(ApiKey, namespacedNameOf(apiKey), patch, 'merge', { signal });
}
