// Imports the webhook layer's private paths, which the written manifests must name.
// TestEnv with webhooks: the manifests written for a cluster (a Service reference, no CA) are
// installed pointed at the manager's own webhook server, TLS included, and the API server calls
// the builder's defaulter and validator on every write of a client.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource } from 'kube-converge/meta';
import { StatusError } from 'kube-converge/client';
import { TestEnv } from 'kube-converge/testing';
import { deny, webhookConfigurations, webhookManagedBy, type AdmissionRegistration } from 'kube-converge/webhook';
import { mutatePath, validatePath } from '../../src/webhook/paths.js';

const base = { group: '', version: 'v1', plural: 'configmaps', namespaced: true, sideEffects: 'None' } as const;
const registrations: AdmissionRegistration[] = [
  { ...base, type: 'mutating', path: mutatePath(ConfigMapResource), operations: ['CREATE', 'UPDATE'] },
  { ...base, type: 'validating', path: validatePath(ConfigMapResource), operations: ['CREATE'] },
];
const { mutating, validating } = webhookConfigurations(registrations, {
  name: 'configmap-webhooks',
  target: { service: { namespace: 'system', name: 'webhook-service' } },
  objectSelector: { matchLabels: { webhooks: 'on' } },
});

describe('TestEnv with webhooks', () => {
  it("installs the cluster manifests pointed at the manager's webhook server, which the API server then calls over TLS", async () => {
    await using env = await TestEnv.start({ webhooks: { configurations: [mutating!, validating!] } });
    const mgr = await env.newManager();
    webhookManagedBy(mgr)
      .for(ConfigMapResource)
      .defaulter((cm) => {
        cm.data = { defaulted: 'yes', ...cm.data };
      })
      .validator({ create: (cm) => (cm.data?.forbidden ? deny('forbidden is not allowed here') : { warnings: ['checked'] }) })
      .complete();
    const run = mgr.start();
    await mgr.elected(); // after the webhook server listens and the caches synced
    const labels = { webhooks: 'on' };
    const cm = await env.client.create(ConfigMapResource, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', namespace: 'default', labels },
      data: { x: '1' },
    });
    assert.deepEqual(cm.data, { defaulted: 'yes', x: '1' });
    await assert.rejects(
      env.client.create(ConfigMapResource, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'b', namespace: 'default', labels },
        data: { forbidden: '1' },
      }),
      (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.reason, 'Forbidden');
        assert.match(
          err.status.message ?? '',
          /admission webhook "vconfigmap-v1\.core\.webhook\.converge\.dev" denied the request: forbidden is not allowed here/,
        );
        return true;
      },
    );
    await mgr.shutdown();
    await run;
  });
});
