/**
 * What the ApiKey tests share: the CRD to install, the ApiKey they create, an operator started on a
 * test's API server, and waits on its results. Every test starts its own API server (`TestEnv`), so
 * no test sees another's objects.
 */
import { fileURLToPath } from 'node:url';
import { SecretResource, findStatusCondition } from 'kube-converge/meta';
import type { Client } from 'kube-converge/client';
import { eventually, type TestEnv } from 'kube-converge/testing';
import { setupApiKeyController } from '../src/controllers/apikey.js';
import type { KeyIssuer } from '../src/issuer.js';
import { ApiKey, type ApiKeyObject } from '../src/api/apikey.js';

export const crd = fileURLToPath(new URL('../crd.yaml', import.meta.url));
export const billing = { namespace: 'default', name: 'billing' };

/** Starts a manager running the ApiKey controller against `env`; `client` lets a test inject faults. */
export async function startOperator(env: TestEnv, issuer: KeyIssuer, client?: Client) {
  const mgr = await env.newManager(client ? { client } : {});
  setupApiKeyController(mgr, { issuer });
  const running = mgr.start();
  return { mgr, running };
}

/** Resolves with the ApiKey once `Ready` has `status` (and `reason`) for its current generation. */
export function readyCondition(env: TestEnv, status: 'True' | 'False', reason?: string): Promise<ApiKeyObject> {
  return eventually(
    async () => {
      const key = await env.client.get(ApiKey, billing);
      const ready = findStatusCondition(key.status?.conditions, 'Ready');
      const current = ready?.observedGeneration === key.metadata.generation && key.status?.observedGeneration === key.metadata.generation;
      return current && ready?.status === status && (reason === undefined || ready.reason === reason) && key;
    },
    { message: `Ready=${status}${reason ? ` (${reason})` : ''}` },
  );
}

/** The key the Secret of `billing` holds, decoded. */
export async function secretToken(env: TestEnv): Promise<string> {
  const secret = await env.client.get(SecretResource, { namespace: 'default', name: 'billing-apikey' });
  return Buffer.from(secret.data!['token']!, 'base64').toString();
}
