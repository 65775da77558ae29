/**
 * Test support for the WebApp's webhook tests: a TestEnv with the WebApp CRD (both versions) whose
 * schema defaults for the replica count are removed, so a defaulted value can only come from the
 * mutating webhook; the webhook configurations as committed; a `shop-prod` namespace labelled
 * production; and a started, elected manager serving the example's webhooks. Invariant: the CRD is
 * the definition's own `crd()`, the one `converge generate` writes, so no file is read for it.
 */
import { NamespaceResource } from 'kube-converge/meta';
import type { Manager } from 'kube-converge/manager';
import { TestEnv } from 'kube-converge/testing';
import { fileURLToPath } from 'node:url';
import { WebApp } from './types.js';
import { setupWebAppWebhooks } from './webhooks.js';

export const WEBHOOK_MANIFEST = fileURLToPath(new URL('./deploy/webhooks/webhooks.yaml', import.meta.url));

/** The WebApp CRD without its schema defaults for `replicas` (v1) and `instances` (v1alpha1). */
export function crdWithoutReplicaDefaults() {
  const crd = WebApp.crd();
  for (const v of crd.spec.versions) {
    const props = v.schema!.openAPIV3Schema!.properties!.spec!.properties!;
    delete props[v.name === 'v1' ? 'replicas' : 'instances']!.default;
  }
  return crd;
}

/** A TestEnv calling this process's WebApp webhooks, with the manager serving them started and elected. */
export async function startWebhookEnv(): Promise<{ env: TestEnv; mgr: Manager; run: Promise<void> }> {
  const env = await TestEnv.start({ crds: [crdWithoutReplicaDefaults()], webhooks: { configurations: [WEBHOOK_MANIFEST] } });
  await env.client.create(NamespaceResource, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'shop-prod', labels: { environment: 'production' } },
  });
  const mgr = await env.newManager();
  setupWebAppWebhooks(mgr);
  const run = mgr.start();
  await mgr.elected();
  return { env, mgr, run };
}
