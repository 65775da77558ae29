/**
 * One reconcile of an ApiKey: keep a key from the issuer in a Secret the ApiKey controls, rotate it
 * when the namespace's policy says it is due, revoke it before a deleted ApiKey may go.
 *
 * Invariants: a key is issued only when live reads (not just the cache) agree that the Secret lacks
 * it, that no key was issued for the spec's current generation, or that the rotation is due; the
 * status says which generation it describes; a spec or policy that no retry can fix ends in a
 * TerminalError after saying why in the `Ready` condition.
 */
import { ConfigMapResource, SecretResource, formatTimestamp, keyOf, type Clock } from 'kube-converge/meta';
import { ignoreNotFound } from 'kube-converge/client';
import { TerminalError, type Request, type Result } from 'kube-converge/controller';
import {
  addFinalizer,
  containsFinalizer,
  createOrPatch,
  removeFinalizer,
  setControllerReference,
  type ManagerClient,
} from 'kube-converge/manager';
import { UnknownServiceError, type KeyIssuer } from '../issuer.js';
import { ApiKey, DEFAULT_ROTATION_MINUTES, POLICY_CONFIGMAP, REVOKE_FINALIZER, type ApiKeyObject } from '../api/apikey.js';
import { patchFinalizers } from './apikey-finalizers.js';
import { standingKeyIssuedAt } from './apikey-standing-key.js';
import { withReady, writeStatus } from './apikey-status.js';

export async function reconcileApiKey(
  req: Request,
  client: ManagerClient,
  issuer: KeyIssuer,
  clock: Clock,
  signal: AbortSignal,
): Promise<Result | void> {
  // 1. Read from the cache; handle deletion.
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

  // 2. Input no retry can fix.
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

  // 3. Decide, and confirm with a live read before doing what cannot be undone.
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

  // 4. Act: a new key, kept in a Secret the ApiKey controls.
  if (issuedAt === undefined) {
    let token: string;
    try {
      token = await issuer.issue(keyOf(req), latest.spec.service);
    } catch (err) {
      if (err instanceof UnknownServiceError) return giveUp(latest, 'UnknownService', err.message);
      throw err; // the issuer is unreachable, say: retried with backoff
    }
    // Reads the Secret (cache), lets us change a copy, and writes only if something changed.
    await createOrPatch(
      client,
      SecretResource,
      { metadata: secretRef },
      (s) => {
        setControllerReference(latest, s); // garbage-collected with the ApiKey; its events map back to it
        s.data = { token: Buffer.from(token).toString('base64') };
      },
      { signal },
    );
    issuedAt = now;
  }

  // 5. Report, and come back when the next rotation is due.
  const message = `key for ${latest.spec.service} in Secret ${secretName}, rotated every ${minutes} min`;
  const status = withReady(
    latest,
    { secretName, rotatedAt: formatTimestamp(issuedAt) },
    { status: 'True', reason: 'KeyIssued', message },
    now,
  );
  await writeStatus(client, latest, status, signal);
  return { requeueAfter: issuedAt + rotationMs - now }; // wakes up when the next rotation is due
}
