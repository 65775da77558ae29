// The hand-written controller converges like the builder version, and its handlers enqueue only keys.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ConfigMapResource, DeploymentResource, ServiceResource, type KubeObject, type ResourceDescriptor } from 'kube-converge/meta';
import { deletedFinalStateUnknown } from 'kube-converge/cache';
import { Queue, itemExponentialFailureRateLimiter } from 'kube-converge/workqueue';
import { TestEnv, eventually } from 'kube-converge/testing';
import { RawWebAppController } from './controller.js';
import { enqueueMappedKeys, enqueueObjectKey } from './handlers.js';
import { setupWebAppController } from '../webapp/controller.js';
import { setupDeploymentSimulator } from '../webapp/deployment-simulator.js';
import { ExternalSystem } from '../webapp/external-system.js';
import { configHash } from '../webapp/render.js';
import { CONFIG_HASH_ANNOTATION, WebApp } from '../webapp/types.js';

const crd = fileURLToPath(new URL('../webapp/crd.yaml', import.meta.url));
const ns = 'default';

/** Runs the raw controller (plus the deployment simulator, so readiness moves) until the returned stop. */
async function startRaw(env: TestEnv): Promise<() => Promise<void>> {
  const ctl = new AbortController();
  const raw = new RawWebAppController({
    client: env.client,
    rateLimiter: itemExponentialFailureRateLimiter({ baseDelayMs: 2, maxDelayMs: 200 }),
  });
  const running = raw.run(ctl.signal);
  const sim = await env.newManager();
  setupDeploymentSimulator(sim, { stepMs: 5 });
  const simRunning = sim.start();
  return async () => {
    ctl.abort();
    await running;
    await sim.shutdown();
    await simRunning;
  };
}

async function seed(env: TestEnv): Promise<void> {
  await env.client.create(ConfigMapResource, { metadata: { name: 'shop-config', namespace: ns }, data: { GREETING: 'hello' } });
  await env.client.create(WebApp, {
    apiVersion: WebApp.apiVersion,
    kind: WebApp.kind,
    metadata: { name: 'shop', namespace: ns },
    spec: { image: 'shop:1', replicas: 2, configRef: 'shop-config' },
  });
}

/** A child without what differs between two servers (uids, versions, timestamps). */
async function comparable<T extends KubeObject>(env: TestEnv, r: ResourceDescriptor<T>): Promise<unknown> {
  const obj = await env.client.get(r, { namespace: ns, name: 'shop' });
  return {
    labels: obj.metadata.labels,
    annotations: obj.metadata.annotations,
    ownerReferences: obj.metadata.ownerReferences?.map(({ uid: _uid, ...ref }) => ref),
    spec: obj.spec,
  };
}

describe('raw WebApp controller (informer, queue, workers, lister by hand)', () => {
  it('creates the same Deployment and Service as the builder version for the same WebApp', async () => {
    await using rawEnv = await TestEnv.start({ crds: [crd] });
    await using builderEnv = await TestEnv.start({ crds: [crd] });
    const stopRaw = await startRaw(rawEnv);
    const mgr = await builderEnv.newManager();
    setupWebAppController(mgr, { externalSystem: new ExternalSystem() });
    const running = mgr.start();
    await Promise.all([seed(rawEnv), seed(builderEnv)]);

    for (const r of [DeploymentResource, ServiceResource] as ResourceDescriptor[]) {
      await eventually(async () => {
        const [fromRaw, fromBuilder] = await Promise.all([comparable(rawEnv, r), comparable(builderEnv, r)]);
        assert.deepEqual(fromRaw, fromBuilder, `${r.kind} differs`);
      });
    }
    await eventually(async () => {
      const app = await rawEnv.client.get(WebApp, { namespace: ns, name: 'shop' });
      assert.deepEqual(app.status, { observedGeneration: 1, readyReplicas: 2 });
    });
    await stopRaw();
    await mgr.shutdown();
    await running;
  });

  it('recreates a deleted child and rolls the template when the ConfigMap changes', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const stop = await startRaw(env);
    await seed(env);
    const dep = await eventually(() => env.client.get(DeploymentResource, { namespace: ns, name: 'shop' }));
    await env.client.delete(DeploymentResource, { namespace: ns, name: 'shop' });
    await eventually(async () =>
      assert.notEqual((await env.client.get(DeploymentResource, { namespace: ns, name: 'shop' })).metadata.uid, dep.metadata.uid),
    );
    const cm = await env.client.patch(ConfigMapResource, { namespace: ns, name: 'shop-config' }, { data: { GREETING: 'hola' } }, 'merge');
    await eventually(async () => {
      const now = await env.client.get(DeploymentResource, { namespace: ns, name: 'shop' });
      assert.equal(now.spec?.template.metadata?.annotations?.[CONFIG_HASH_ANNOTATION], configHash(cm));
    });
    await stop();
  });

  it('enqueues only keys: tombstones by their key, same-resourceVersion resyncs not at all', () => {
    const queue = new Queue<string>();
    const app = { metadata: { name: 'shop', namespace: ns, resourceVersion: '7' }, spec: { configRef: 'c' } };
    const handler = enqueueObjectKey(queue);
    void handler.onUpdate!(app, app);
    assert.equal(queue.len(), 0, 'a resync of an unchanged object is not work');
    void handler.onDelete!(deletedFinalStateUnknown('default/shop', app));
    void handler.onUpdate!(app, { ...app, metadata: { ...app.metadata, resourceVersion: '8' } });
    assert.equal(queue.len(), 1, 'the same key twice is one item');

    const mapped = new Queue<string>();
    const byRef = enqueueMappedKeys<typeof app>(mapped, (o) => [`${o.metadata.namespace}/${o.spec.configRef}`]);
    void byRef.onDelete!(deletedFinalStateUnknown('default/shop', app));
    void byRef.onUpdate!(app, { ...app, metadata: { ...app.metadata, resourceVersion: '9' }, spec: { configRef: 'd' } });
    assert.equal(mapped.len(), 2, 'the tombstone maps through its last known object; a moved reference enqueues both sides');
  });
});
