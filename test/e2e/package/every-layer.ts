// Copied into the pack test's app and compiled there against the installed package: one use of each
// public layer, as an app would write it (a typed custom resource, a controller in a manager under
// TestEnv, a schema-first CRD, a rate-limited queue, a shared informer over a client that reads the local server's
// kubeconfig). It prints one line when everything worked.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigMapResource, defineResource, realClock, type KubeObject } from 'kube-converge/meta';
import { RateLimitingQueue, defaultControllerRateLimiter } from 'kube-converge/workqueue';
import { createClient, ignoreNotFound, loadKubeConfig } from 'kube-converge/client';
import { SharedInformerFactory, type ResourceEventHandler } from 'kube-converge/cache';
import { controllerManagedBy, type Request } from 'kube-converge/controller';
import { createOrUpdate, type Manager } from 'kube-converge/manager';
import { startApiServer } from 'kube-converge/apiserver';
import { TestEnv, eventually, type TestEnvOptions } from 'kube-converge/testing';
import { defineCustomResource } from 'kube-converge/schema';
import { Type } from 'typebox';

interface GreetingSpec {
  text: string;
  times?: number;
}
export const Greeting = defineResource<GreetingSpec>({
  group: 'example.dev',
  version: 'v1',
  kind: 'Greeting',
  plural: 'greetings',
  namespaced: true,
});
export type Greeting = KubeObject & { spec: GreetingSpec };

export function setup(mgr: Manager, seen: Request[]): void {
  controllerManagedBy(mgr)
    .for(ConfigMapResource)
    .complete(async (req, { client, signal }) => {
      seen.push(req);
      const cm = client.get(ConfigMapResource, req);
      if (!cm) return;
      await createOrUpdate(
        client,
        ConfigMapResource,
        { metadata: { namespace: req.namespace ?? 'default', name: `${req.name}-copy` } },
        (copy) => {
          copy.data = { ...cm.data };
        },
        { signal },
      );
    });
}

export const Counter = defineCustomResource({
  group: 'example.dev',
  kind: 'Counter',
  scope: 'Namespaced',
  versions: { v1: { served: true, storage: true, spec: Type.Object({ count: Type.Integer({ minimum: 0 }) }) } },
});

const options: TestEnvOptions = { garbageCollection: true, crds: [Counter.crd()] };
await using env = await TestEnv.start(options);
const seen: Request[] = [];
const mgr = await env.newManager();
setup(mgr, seen);
const running = mgr.start();
await env.client.create(ConfigMapResource, { metadata: { namespace: 'default', name: 'a' }, data: { k: 'v' } });
const counter = await env.client.create(Counter, { metadata: { namespace: 'default', name: 'c' }, spec: { count: 1 } });
assert.equal(counter.spec.count, 1);
const copy = await eventually(() => env.client.get(ConfigMapResource, { namespace: 'default', name: 'a-copy' }));
assert.deepEqual(copy.data, { k: 'v' });
await mgr.shutdown();
await running;

const queue = new RateLimitingQueue<string>({ rateLimiter: defaultControllerRateLimiter(), clock: realClock });
queue.add('x');
const got = await queue.get();
assert.equal(got.shutdown ? undefined : got.item, 'x');
queue.shutDown();

await using server = await startApiServer({ port: 0 });
const dir = await mkdtemp(join(tmpdir(), 'every-layer-'));
await server.writeKubeconfig(join(dir, 'kubeconfig'));
const client = createClient({ config: loadKubeConfig({ path: join(dir, 'kubeconfig') }) });
const factory = new SharedInformerFactory({ client });
const added: string[] = [];
const handler: ResourceEventHandler<KubeObject> = { onAdd: (obj) => void added.push(obj.metadata.name ?? '') };
factory.informerFor(ConfigMapResource).addEventHandler(handler);
const stop = new AbortController();
factory.start(stop.signal);
await factory.waitForCacheSync();
await client.create(ConfigMapResource, { metadata: { namespace: 'default', name: 'b' } });
await eventually(() => added.includes('b'));
assert.equal(await client.get(ConfigMapResource, { namespace: 'default', name: 'missing' }).catch(ignoreNotFound), undefined);
stop.abort();
client.close();
await rm(dir, { recursive: true, force: true });
console.log('every layer works');
