// Imports apiserver's internal (private) face: machinery shared between layers that the package does not export.
// The SharedIndexInformer contract, run against every informer that claims it (see
// informer-contract.test.ts). Each case runs against the local API server, through a fault-injecting
// reader client, over ConfigMaps in two namespaces, so composite informers (one member per namespace
// or per shard) are held to exactly what a plain informer promises.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer } from 'kube-converge/apiserver';
import { listen } from '../../src/apiserver/internal.js';
import type { IndexFunc, SharedIndexInformer } from 'kube-converge/cache';
import { bearerTokenAuth, createClient, type Client } from 'kube-converge/client';
import { ConfigMapResource, NamespaceResource, objectKey, type KubeObject } from 'kube-converge/meta';
import { eventually } from 'kube-converge/testing';
import { faultyClient, type FaultyClient } from './faulty-client.js';
import { recorder } from './helpers.js';

export const NAMESPACES = ['ns-a', 'ns-b'] as const;

/** Builds the informer under test over `client`, watching ConfigMaps in (at least) `NAMESPACES`. */
export type MakeInformer = (client: Client) => Promise<SharedIndexInformer<KubeObject>>;

const cmR = ConfigMapResource as unknown as Parameters<Client['create']>[0];
const byColor: IndexFunc<KubeObject> = (o) =>
  (o['data'] as Record<string, string> | undefined)?.['color'] ? [(o['data'] as Record<string, string>)['color']!] : [];
const configMap = (namespace: string, name: string, data: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data,
});

interface Env {
  writer: Client;
  reader: FaultyClient;
  informer: SharedIndexInformer<KubeObject>;
  compact(): void;
  /** Starts the informer (the case decides what to register before). */
  run(): void;
  /** Waits until the store holds exactly what the server holds in `NAMESPACES`. */
  converged(): Promise<void>;
  create(namespace: string, name: string, data?: Record<string, string>): Promise<void>;
  update(namespace: string, name: string, data: Record<string, string>): Promise<void>;
  remove(namespace: string, name: string): Promise<void>;
}

async function withEnv(make: MakeInformer, body: (env: Env) => Promise<void>): Promise<void> {
  const api = createApiServer({ bookmarkIntervalMs: 1_000 });
  // The bare socket adapter over plain HTTP (this suite is about informers, not TLS), with a token.
  const adminToken = 'contract-admin-token';
  const auth = bearerTokenAuth(adminToken);
  const listening = await listen(api, { adminToken });
  const writer = createClient({ config: { server: `http://127.0.0.1:${listening.port}`, auth, qps: -1 } });
  for (const name of NAMESPACES) await writer.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const rest = createClient({ config: { server: `http://127.0.0.1:${listening.port}`, auth, qps: -1 }, maxRetries: 0 });
  const reader = faultyClient(rest);
  const informer = await make(reader);
  const ac = new AbortController();
  let running: Promise<void> | undefined;
  const serverState = async (): Promise<Map<string, string | undefined>> => {
    const lists = await Promise.all(NAMESPACES.map((namespace) => writer.list(ConfigMapResource, { namespace })));
    return new Map(lists.flatMap((l) => l.items).map((x) => [objectKey(x), x.metadata.resourceVersion]));
  };
  const env: Env = {
    writer,
    reader,
    informer,
    compact: () => api.compact(),
    run: () => {
      running = informer.run(ac.signal);
    },
    converged: () =>
      eventually(
        async () => {
          const cache = new Map(
            informer
              .getIndexer()
              .list()
              .map((x) => [objectKey(x), x.metadata.resourceVersion]),
          );
          assert.deepEqual(cache, await serverState());
        },
        { timeoutMs: 10_000, intervalMs: 25, message: 'cache == server' },
      ),
    create: async (namespace, name, data = {}) => void (await writer.create(cmR, configMap(namespace, name, data))),
    update: async (namespace, name, data) => {
      const current = await writer.get(ConfigMapResource, { namespace, name });
      await writer.update(cmR, { ...current, data });
    },
    remove: async (namespace, name) => void (await writer.delete(cmR, { namespace, name })),
  };
  try {
    await body(env);
  } finally {
    ac.abort();
    await running;
    writer.close();
    rest.close();
    await listening.close();
    api.stop();
  }
}

/** Every implementation runs every case: none is skipped, so there is no skip list to give reasons in. */
export function sharedIndexInformerContract(name: string, make: MakeInformer): void {
  const test = (title: string, body: (env: Env) => Promise<void>): void => {
    it(title, () => withEnv(make, body));
  };

  describe(`${name} satisfies SharedIndexInformer`, () => {
    test('delivers the add, updates and delete of each object in the order they happened', async (env) => {
      const r = recorder();
      env.informer.addEventHandler(r.handler);
      env.run();
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      for (const ns of NAMESPACES) {
        await env.create(ns, 'x', { v: '1' });
        await env.update(ns, 'x', { v: '2' });
        await env.update(ns, 'x', { v: '3' });
        await env.remove(ns, 'x');
      }
      await eventually(() => r.events.length === 8, { message: 'eight notifications' });
      const kinds = (ev: string[]) => ev.map((e) => e.split(' ')[0]);
      assert.deepEqual(kinds(r.events.slice(0, 4)), ['add', 'update', 'update', 'delete']);
      assert.deepEqual(kinds(r.events.slice(4)), ['add', 'update', 'update', 'delete']);
    });

    test('is synced only once the initial list is in the store, and a registration only once its handler saw every initial add', async (env) => {
      for (const ns of NAMESPACES) for (let i = 0; i < 5; i++) await env.create(ns, `cm-${i}`);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let adds = 0;
      // A handler that blocks on its first add: its registration cannot be synced before it is let go.
      const reg = env.informer.addEventHandler({ onAdd: async () => void (adds++ === 0 && (await gate)) });
      assert.equal(env.informer.hasSynced(), false);
      assert.equal(reg.hasSynced(), false);
      env.run();
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      assert.equal(env.informer.hasSynced(), true);
      assert.equal(env.informer.getIndexer().list().length, 10);
      assert.equal(reg.hasSynced(), false);
      release();
      await eventually(() => reg.hasSynced(), { message: 'the registration synced' });
      assert.equal(adds, 10);
    });

    test('a handler added after the sync first gets the whole store as initial-list adds, then live events', async (env) => {
      for (const ns of NAMESPACES) await env.create(ns, 'early');
      env.run();
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      const r = recorder();
      const reg = env.informer.addEventHandler(r.handler);
      await eventually(() => reg.hasSynced(), { message: 'the late registration synced' });
      assert.deepEqual(r.events.map((e) => e.replace(/ \d+/, '')).sort(), ['add early initial', 'add early initial']);
      await env.create(NAMESPACES[0], 'late');
      await eventually(() => r.events.some((e) => e.startsWith('add late') && !e.endsWith('initial')), { message: 'the live add' });
    });

    test('a removed handler gets nothing more while the other handlers go on', async (env) => {
      const kept = recorder();
      const gone = recorder();
      env.informer.addEventHandler(kept.handler);
      const reg = env.informer.addEventHandler(gone.handler);
      env.run();
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      await env.create(NAMESPACES[0], 'before');
      await eventually(() => gone.events.length === 1, { message: 'the first add' });
      reg.remove();
      for (const ns of NAMESPACES) await env.create(ns, 'after');
      await eventually(() => kept.events.length === 3, { message: 'the kept handler saw all three' });
      assert.deepEqual(
        gone.events.map((e) => e.split(' ').slice(0, 2).join(' ')),
        ['add before'],
      );
    });

    test('a relist after missed deletes delivers tombstones carrying the last known state, and the store equals the server', async (env) => {
      for (const ns of NAMESPACES) for (const n of ['keep', 'doomed']) await env.create(ns, n);
      const r = recorder();
      env.informer.addEventHandler(r.handler);
      env.run();
      await env.converged();
      env.reader.dropEvents = true; // the watches stall: events are lost in flight
      for (const ns of NAMESPACES) await env.remove(ns, 'doomed');
      env.compact();
      env.reader.dropEvents = false;
      env.reader.endWatches(); // re-watching from the old RV hits the compaction: 410, then a relist
      await env.converged();
      await eventually(() => r.events.filter((e) => e.startsWith('tombstone')).length === 2, { message: 'two tombstones' });
      const tombstones = r.events
        .filter((e) => e.startsWith('tombstone'))
        .map((e) => e.split(' ')[1])
        .sort();
      assert.deepEqual(
        tombstones,
        NAMESPACES.map((ns) => `${ns}/doomed`),
      );
      assert.ok(!r.events.some((e) => e.startsWith('delete')), 'the deletes were missed, so only tombstones report them');
    });

    test('indexes added before the start and after the sync both answer over every object', async (env) => {
      await env.create(NAMESPACES[0], 'red-1', { color: 'red' });
      await env.create(NAMESPACES[1], 'red-2', { color: 'red' });
      await env.create(NAMESPACES[1], 'blue', { color: 'blue' });
      env.informer.addIndexers({ byColor });
      env.run();
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      const idx = env.informer.getIndexer();
      assert.deepEqual(idx.byIndex('byColor', 'red').map(objectKey).sort(), [`${NAMESPACES[0]}/red-1`, `${NAMESPACES[1]}/red-2`]);
      assert.deepEqual(idx.listIndexFuncValues('byColor').sort(), ['blue', 'red']);
      env.informer.addIndexers({ byName: (o) => [o.metadata.name ?? ''] });
      assert.deepEqual(idx.indexKeys('byName', 'blue'), [`${NAMESPACES[1]}/blue`]);
      await env.update(NAMESPACES[1], 'blue', { color: 'red' });
      await eventually(() => idx.byIndex('byColor', 'red').length === 3, { message: 'the update moved the object to red' });
      assert.deepEqual(idx.byIndex('byColor', 'blue'), []);
    });

    test('objects in the store and in notifications are deep-frozen', async (env) => {
      await env.create(NAMESPACES[0], 'a', { v: '1' });
      const seen: KubeObject[] = [];
      env.informer.addEventHandler({ onAdd: (o) => void seen.push(o), onUpdate: (_old, o) => void seen.push(o) });
      env.run();
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      await env.update(NAMESPACES[0], 'a', { v: '2' });
      await eventually(() => seen.length === 2, { message: 'the add and the update' });
      for (const o of [...seen, ...env.informer.getIndexer().list()]) {
        assert.equal(Object.isFrozen(o), true);
        assert.equal(Object.isFrozen(o.metadata), true);
        assert.equal(Object.isFrozen(o['data']), true);
      }
      assert.throws(() => {
        (seen[1]!['data'] as Record<string, string>)['v'] = 'mutated';
      }, TypeError);
    });
  });
}
