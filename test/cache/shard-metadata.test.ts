// Imports meta's internal (private) face: machinery shared between layers that the package does not export.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer } from 'kube-converge/apiserver';
import { fnv1a64 } from '../../src/meta/internal.js';
import {
  createListerWatcher,
  createSharedIndexInformer,
  deletedObject,
  SharedInformerFactory,
  ShardSelectorIgnoredError,
  type SharedIndexInformer,
} from 'kube-converge/cache';
import { createClient, metadataOnly, type RestClient } from 'kube-converge/client';
import { ConfigMapResource, objectKey, SecretResource, type KubeObject, type PartialObjectMetadata } from 'kube-converge/meta';
import { eventually, restConfigFor } from 'kube-converge/testing';
import { FakeClient } from './fake-client.js';

const LOWER = "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')";
const UPPER = "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')";

/** key → resourceVersion of a store, or of the server's collection. */
const versions = (objs: readonly KubeObject[]): Map<string, string> =>
  new Map(objs.map((o) => [objectKey(o), o.metadata.resourceVersion!]));

async function inBatches<T>(items: T[], f: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += 25) await Promise.all(items.slice(i, i + 25).map(f));
}

describe('sharded and metadata-only informers: ListerWatcher and factory', () => {
  it('passes the shard selector to both the list and the watch, and names it in the description', async () => {
    const fake = new FakeClient();
    const lw = createListerWatcher({ client: fake, resource: ConfigMapResource, namespace: 'default', shardSelector: LOWER });
    assert.equal(lw.description, `configmaps namespace=default shard=${LOWER}`);
    await assert.rejects(lw.list({ limit: 10 }), ShardSelectorIgnoredError);
    (await lw.watch({ resourceVersion: '5' })).close();
    assert.equal(fake.lists()[0]?.shardSelector, LOWER);
    assert.equal(fake.watchCalls()[0]?.shardSelector, LOWER);
    const meta = createListerWatcher({ client: fake, resource: metadataOnly(ConfigMapResource) });
    assert.equal(meta.description, 'configmaps metadata-only');
  });

  it('refuses a sharded list the server answered without shardInfo, so the whole collection never fills a shard; the informer keeps retrying and says why', async () => {
    const fake = new FakeClient();
    fake.upsert({ metadata: { namespace: 'default', name: 'a', uid: 'u-a' } });
    const lw = createListerWatcher({ client: fake, resource: ConfigMapResource, shardSelector: LOWER });
    const err = await lw.list({}).catch((e: unknown) => e);
    assert.ok(err instanceof ShardSelectorIgnoredError);
    assert.equal(err.code, 'CONVERGE_SHARD_SELECTOR_IGNORED');
    assert.match(err.message, /ignored shardSelector/);
    const informer = createSharedIndexInformer({ listerWatcher: lw, reflector: { backoff: { initialMs: 5, capMs: 10 } } });
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    try {
      await eventually(() => fake.lists().length >= 3, { message: 'the reflector retries' });
      assert.equal(informer.hasSynced(), false);
      assert.equal(informer.getIndexer().list().length, 0);
      assert.match(informer.status().lastError?.message ?? '', /ignored shardSelector/);
    } finally {
      ac.abort();
      await running;
    }
  });

  it('keeps one informer per collection: a shard and a metadata-only view are collections of their own', () => {
    const factory = new SharedInformerFactory({ client: new FakeClient() });
    const full = factory.informerFor(ConfigMapResource);
    const lower = factory.informerFor(ConfigMapResource, { shardSelector: LOWER });
    const meta = factory.informerFor(metadataOnly(ConfigMapResource));
    const metaLower = factory.informerFor(metadataOnly(ConfigMapResource), { shardSelector: LOWER });
    assert.equal(
      new Set<unknown>([full, lower, meta, metaLower, factory.informerFor(ConfigMapResource, { shardSelector: UPPER })]).size,
      5,
    );
    assert.equal(factory.informerFor(ConfigMapResource), full);
    assert.equal(factory.informerFor(ConfigMapResource, { shardSelector: LOWER }), lower);
    assert.equal(factory.informerFor(metadataOnly(ConfigMapResource)), meta);
    assert.equal(factory.informerFor(metadataOnly(SecretResource)) === meta, false);
  });
});

describe('sharded and metadata-only informers against the local API server', () => {
  it('splits 200 ConfigMaps between two complementary shards: disjoint stores whose union is the server, across creates, updates and deletes', async () => {
    await using srv = await startApiServer({ bookmarkIntervalMs: 200 });
    const client: RestClient = createClient({ config: restConfigFor(srv) });
    const factory = new SharedInformerFactory({ client, namespace: 'default', reflector: { pageSize: 50 } });
    const lower = factory.informerFor(ConfigMapResource, { shardSelector: LOWER });
    const upper = factory.informerFor(ConfigMapResource, { shardSelector: UPPER });
    const ac = new AbortController();
    try {
      await inBatches([...Array(200).keys()], (i) =>
        client.create(ConfigMapResource, { metadata: { namespace: 'default', name: `cm-${i}` }, data: { v: '0' } }),
      );
      factory.start(ac.signal);
      await factory.waitForCacheSync({ signal: AbortSignal.timeout(10_000) });
      const converged = async (): Promise<void> => {
        const server = versions((await client.list(ConfigMapResource, { namespace: 'default' })).items);
        await eventually(
          () => {
            const l = versions(lower.getIndexer().list());
            const u = versions(upper.getIndexer().list());
            if (l.size + u.size !== server.size) return false;
            for (const [key, rv] of [...l, ...u]) if (server.get(key) !== rv) return false;
            return true;
          },
          { timeoutMs: 10_000, message: 'shards cover the server exactly' },
        );
        const l = lower.getIndexer().list();
        const u = upper.getIndexer().list();
        assert.ok(l.length > 50 && u.length > 50, `200 random UIDs split roughly in half (${l.length}/${u.length})`);
        assert.ok(l.every((o) => fnv1a64(o.metadata.uid!) < 0x8000000000000000n));
        assert.ok(u.every((o) => fnv1a64(o.metadata.uid!) >= 0x8000000000000000n));
        const lowerKeys = new Set(l.map(objectKey));
        assert.equal(u.filter((o) => lowerKeys.has(objectKey(o))).length, 0, 'the shards are disjoint');
      };
      await converged();

      const lowerDeletes: string[] = [];
      lower.addEventHandler({ onDelete: (o) => void lowerDeletes.push(objectKey(deletedObject(o))) });
      await inBatches([...Array(60).keys()], async (i) => {
        const cur = await client.get(ConfigMapResource, { namespace: 'default', name: `cm-${i}` });
        await client.update(ConfigMapResource, { ...cur, data: { v: '1' } });
      });
      await inBatches(
        [...Array(50).keys()].map((i) => i + 100),
        (i) => client.delete(ConfigMapResource, { namespace: 'default', name: `cm-${i}` }),
      );
      await inBatches([...Array(30).keys()], (i) =>
        client.create(ConfigMapResource, { metadata: { namespace: 'default', name: `new-${i}` } }),
      );
      await converged();
      assert.ok(lowerDeletes.length > 0 && lowerDeletes.length < 50, 'each shard sees only the deletes of its own objects');
      assert.equal(
        lower.getIndexer().getByKey('default/cm-5')?.data?.['v'] ?? upper.getIndexer().getByKey('default/cm-5')?.data?.['v'],
        '1',
      );
    } finally {
      ac.abort();
      await factory.stopped();
      client.close();
    }
  });

  it('keeps a metadata-only informer of frozen PartialObjectMetadata with the kind set: no data, but label changes arrive', async () => {
    await using srv = await startApiServer();
    const client = createClient({ config: restConfigFor(srv) });
    const factory = new SharedInformerFactory({ client, namespace: 'default' });
    const meta: SharedIndexInformer<PartialObjectMetadata> = factory.informerFor(metadataOnly(ConfigMapResource));
    const full = factory.informerFor(ConfigMapResource);
    const updates: [string | undefined, string | undefined][] = [];
    meta.addEventHandler({ onUpdate: (o, n) => void updates.push([o.metadata.labels?.['tier'], n.metadata.labels?.['tier']]) });
    const ac = new AbortController();
    try {
      await client.create(ConfigMapResource, {
        metadata: { namespace: 'default', name: 'a', labels: { tier: 'web' } },
        data: { payload: 'x'.repeat(1000) },
      });
      factory.start(ac.signal);
      await factory.waitForCacheSync({ signal: AbortSignal.timeout(5000) });
      const a = meta.getIndexer().getByKey('default/a')!;
      assert.equal(a.apiVersion, 'v1');
      assert.equal(a.kind, 'ConfigMap');
      assert.deepEqual(Object.keys(a).sort(), ['apiVersion', 'kind', 'metadata']);
      assert.ok(Object.isFrozen(a) && Object.isFrozen(a.metadata.labels));
      assert.throws(() => {
        (a.metadata.labels as Record<string, string>)['tier'] = 'x';
      }, TypeError);
      assert.equal(
        full.getIndexer().getByKey('default/a')?.data?.['payload']?.length,
        1000,
        'the full informer of the same kind is separate and whole',
      );

      await client.patch(ConfigMapResource, { namespace: 'default', name: 'a' }, { metadata: { labels: { tier: 'db' } } }, 'merge');
      await client.create(ConfigMapResource, { metadata: { namespace: 'default', name: 'b' }, data: { k: 'v' } });
      await eventually(() => meta.getIndexer().getByKey('default/b') !== undefined && updates.length === 1);
      assert.deepEqual(updates, [['web', 'db']]);
      const b = meta.getIndexer().getByKey('default/b')!;
      assert.equal(b.kind, 'ConfigMap', 'watch events get the kind too');
      assert.equal(b['data'], undefined);
      assert.equal(meta.getIndexer().getByKey('default/a')?.metadata.labels?.['tier'], 'db');
    } finally {
      ac.abort();
      await factory.stopped();
      client.close();
    }
  });
});
