/**
 * The controller over the real pieces: the local API server on loopback, the HTTP client and the
 * shared informer factory, joined by a minimal ControllerHost. Waits are on real I/O, bounded by
 * `eventually`'s timeout. (Manager-level end-to-end tests live with the manager.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer } from 'kube-converge/apiserver';
import { SharedInformerFactory } from 'kube-converge/cache';
import type { SharedIndexInformer } from 'kube-converge/cache';
import { createClient, isNotFound } from 'kube-converge/client';
import type { RestClient } from 'kube-converge/client';
import { controllerManagedBy, labelSelectorPredicate } from 'kube-converge/controller';
import type { ControllerHost, Runnable } from 'kube-converge/controller';
import { ConfigMapResource, noopLogger, realClock } from 'kube-converge/meta';
import type { KubeObject, ResourceDescriptor } from 'kube-converge/meta';
import { eventually, restConfigFor } from 'kube-converge/testing';

/** A host over one informer factory; informers asked for after start are started at once. */
function informerHost(client: RestClient, signal: AbortSignal): ControllerHost<RestClient> & { runnables: Runnable[] } {
  const factory = new SharedInformerFactory({ client });
  const names = new Set<string>();
  return {
    client,
    logger: noopLogger,
    clock: realClock,
    runnables: [],
    async getInformer<T extends KubeObject>(r: ResourceDescriptor<T>): Promise<SharedIndexInformer<T>> {
      const informer = factory.informerFor(r);
      factory.start(signal);
      return informer;
    },
    add(runnable: Runnable) {
      this.runnables.push(runnable);
    },
    registerControllerName(name: string) {
      if (names.has(name)) throw new Error(`duplicate controller name ${name}`);
      names.add(name);
    },
  };
}

describe('controller against the local API server', () => {
  it('creates an owned child, recreates it when deleted, and collapses 50 rapid updates into few reconciles', async () => {
    await using server = await startApiServer();
    const client = createClient({ config: restConfigFor(server) });
    const stop = new AbortController();
    const host = informerHost(client, stop.signal);
    const reconciles = new Map<string, number>();
    let gate: Promise<void> | undefined;

    const controller = controllerManagedBy(host)
      .for(ConfigMapResource, { predicates: [labelSelectorPredicate({ matchLabels: { role: 'parent' } })] })
      .owns(ConfigMapResource)
      .named('parents')
      .build(async (req, { client: c, signal }) => {
        reconciles.set(req.name, (reconciles.get(req.name) ?? 0) + 1);
        await gate;
        let parent: KubeObject;
        try {
          parent = await c.get(ConfigMapResource, req, { signal });
        } catch (err) {
          if (isNotFound(err)) return;
          throw err;
        }
        const childName = `${req.name}-child`;
        try {
          await c.get(ConfigMapResource, { ...req, name: childName }, { signal });
        } catch (err) {
          if (!isNotFound(err)) throw err;
          await c.create(
            ConfigMapResource,
            {
              metadata: {
                ...req,
                name: childName,
                ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: req.name, uid: parent.metadata.uid!, controller: true }],
              },
              data: { from: req.name },
            },
            { signal },
          );
        }
      });
    const running = controller.start(stop.signal);
    try {
      await client.create(ConfigMapResource, { metadata: { namespace: 'default', name: 'app', labels: { role: 'parent' } } });
      await eventually(() => client.get(ConfigMapResource, { namespace: 'default', name: 'app-child' }), {
        timeoutMs: 5_000,
        message: 'child created',
      });

      await client.delete(ConfigMapResource, { namespace: 'default', name: 'app-child' });
      await eventually(
        async () => {
          const child = await client.get(ConfigMapResource, { namespace: 'default', name: 'app-child' });
          assert.equal(child.data?.['from'], 'app');
        },
        { timeoutMs: 5_000, message: 'child recreated after delete' },
      );

      // Hold the next reconcile while 50 updates land, then let it go.
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      await eventually(() => (reconciles.get('app') ?? 0) >= 2, { timeoutMs: 5_000 });
      const before = reconciles.get('app')!;
      let last = '';
      for (let i = 0; i < 50; i++) {
        const cur = await client.get(ConfigMapResource, { namespace: 'default', name: 'app' });
        const next = await client.update(ConfigMapResource, { ...cur, data: { n: String(i) } });
        last = next.metadata.resourceVersion!;
      }
      assert.equal(host.runnables.length, 1, 'the builder added the controller to the host');
      await eventually(
        async () => {
          const informer = await host.getInformer(ConfigMapResource);
          return informer.getIndexer().getByKey('default/app')?.metadata.resourceVersion === last;
        },
        { timeoutMs: 5_000, message: 'the cache saw the 50th update' },
      );
      gate = undefined;
      release();
      // The first update started a reconcile that was held; the other 49 collapse into one more.
      await eventually(() => reconciles.get('app')! - before >= 2, { timeoutMs: 5_000 });
      const during = reconciles.get('app')! - before;
      assert.equal(during, 2, `50 updates while a reconcile was held gave ${during} reconciles`);
    } finally {
      stop.abort();
      await running;
      client.close();
    }
  });
});
