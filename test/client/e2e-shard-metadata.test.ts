// Imports client and meta's internal (private) face: machinery shared between layers that the package does not export.
// Sharded list/watch and metadata-only reads, end to end against the local API server; the fallback
// of a server that ignores `as=PartialObjectMetadata` against a scripted fixture server.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  ConfigMapResource,
  InvalidOptionError,
  NamespaceResource,
  type KubeObject,
  type ListMeta,
  type PartialObjectMetadata,
} from 'kube-converge/meta';
import { fnv1a64 } from '../../src/meta/internal.js';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import { createClient, metadataOnly, type RestClient, type WatchEvent, type WatchStream } from 'kube-converge/client';
import { isMetadataOnly } from '../../src/client/internal.js';
import { startFixtureServer, sendJson } from './fixture-server.js';
import { restConfigFor } from 'kube-converge/testing';

const NS = 'shard-meta';
const LOWER = "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')";
const UPPER = "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')";
const inLower = (o: KubeObject): boolean => fnv1a64(o.metadata.uid!) < 0x8000000000000000n;
const shardInfo = (m: ListMeta): unknown => (m as ListMeta & { shardInfo?: unknown }).shardInfo;

let server: RunningApiServer;
let client: RestClient;
before(async () => {
  server = await startApiServer();
  client = createClient({ config: restConfigFor(server) });
  await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
});
after(async () => {
  client.close();
  await server.stop();
});

async function take<T extends KubeObject>(w: WatchStream<T>, n: number): Promise<WatchEvent<T>[]> {
  const out: WatchEvent<T>[] = [];
  const timer = setTimeout(() => w.close(), 5000);
  for await (const ev of w) {
    out.push(ev);
    if (out.length === n) break;
  }
  clearTimeout(timer);
  return out;
}

describe('client e2e: sharded list and watch', () => {
  it('lists complementary shards that are disjoint, cover the namespace and are marked as shards', async () => {
    for (let i = 0; i < 30; i++)
      await client.create(ConfigMapResource, { metadata: { namespace: NS, name: `s-${i}` }, data: { i: String(i) } });
    const all = await client.list(ConfigMapResource, { namespace: NS });
    const lower = await client.list(ConfigMapResource, { namespace: NS, shardSelector: LOWER });
    const upper = await client.list(ConfigMapResource, { namespace: NS, shardSelector: UPPER, limit: 5 });
    assert.deepEqual(shardInfo(lower.metadata), { selector: LOWER });
    assert.equal(shardInfo(all.metadata), undefined);
    assert.ok(lower.items.every(inLower));
    let page = upper;
    const upperNames = page.items.map((o) => o.metadata.name);
    while (page.metadata.continue) {
      page = await client.list(ConfigMapResource, { namespace: NS, shardSelector: UPPER, limit: 5, continue: page.metadata.continue });
      upperNames.push(...page.items.map((o) => o.metadata.name));
    }
    const names = [...lower.items.map((o) => o.metadata.name), ...upperNames].sort();
    assert.deepEqual(names, all.items.map((o) => o.metadata.name).sort());
    assert.equal(new Set(names).size, names.length);
  });

  it('watches one shard: events of objects outside it never arrive', async () => {
    const list = await client.list(ConfigMapResource, { namespace: NS });
    const w = await client.watch(ConfigMapResource, {
      namespace: NS,
      shardSelector: LOWER,
      resourceVersion: list.metadata.resourceVersion,
    });
    const created: KubeObject[] = [];
    for (let i = 0; i < 10; i++) created.push(await client.create(ConfigMapResource, { metadata: { namespace: NS, name: `w-${i}` } }));
    let marker: KubeObject | undefined;
    for (let i = 0; !marker; i++) {
      const o = await client.create(ConfigMapResource, { metadata: { namespace: NS, name: `w-marker-${i}` } });
      if (inLower(o)) marker = o;
    }
    const expected = [...created.filter(inLower), marker].map((o) => o.metadata.name);
    const evs = await take(w, expected.length);
    assert.deepEqual(
      evs.map((e) => (e.type === 'ADDED' ? e.object.metadata.name : e.type)),
      expected,
    );
  });
});

describe('client e2e: metadata-only reads', () => {
  const meta = metadataOnly(ConfigMapResource);

  it('keeps the real kind on the descriptor and marks it metadata-only', () => {
    assert.equal(isMetadataOnly(meta), true);
    assert.equal(isMetadataOnly(ConfigMapResource), false);
    assert.equal(meta.kind, 'ConfigMap');
    assert.equal(meta.apiVersion, 'v1');
    assert.equal(metadataOnly(meta), meta);
    assert.ok(Object.isFrozen(meta));
  });

  it('gets, lists and watches PartialObjectMetadata: labels and annotations, never data', async () => {
    await client.create(ConfigMapResource, { metadata: { namespace: NS, name: 'm-a', labels: { tier: 'web' } }, data: { secret: 'x' } });
    const got: PartialObjectMetadata = await client.get(meta, { namespace: NS, name: 'm-a' });
    assert.equal(got.kind, 'PartialObjectMetadata');
    assert.equal(got.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(got.metadata.labels, { tier: 'web' });
    assert.equal(got['data'], undefined);
    const list = await client.list(meta, { namespace: NS, labelSelector: 'tier=web' });
    assert.equal(list.kind, 'PartialObjectMetadataList');
    assert.deepEqual(
      list.items.map((o) => [o.kind, o.metadata.name, o['data']]),
      [['PartialObjectMetadata', 'm-a', undefined]],
    );
    const w = await client.watch(meta, { namespace: NS, resourceVersion: list.metadata.resourceVersion });
    await client.patch(
      ConfigMapResource,
      { namespace: NS, name: 'm-a' },
      { metadata: { labels: { tier: 'db' } }, data: { secret: 'y' } },
      'merge',
    );
    const [ev] = await take(w, 1);
    assert.equal(ev?.type, 'MODIFIED');
    assert.equal(ev.object.kind, 'PartialObjectMetadata');
    assert.deepEqual((ev.object as PartialObjectMetadata).metadata.labels, { tier: 'db' });
    assert.equal((ev.object as PartialObjectMetadata)['data'], undefined);
  });

  it('patches and deletes through the metadata-only view, answering with metadata; refuses create and update', async () => {
    await client.create(ConfigMapResource, {
      metadata: { namespace: NS, name: 'm-b', finalizers: ['test.converge.dev/keep'] },
      data: { k: 'v' },
    });
    const patched = await client.patch(meta, { namespace: NS, name: 'm-b' }, { metadata: { annotations: { a: '1' } } }, 'merge');
    assert.equal(patched.kind, 'PartialObjectMetadata');
    assert.deepEqual(patched.metadata.annotations, { a: '1' });
    assert.equal(patched['data'], undefined);
    const stub: PartialObjectMetadata = {
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: { namespace: NS, name: 'm-c' },
    };
    await assert.rejects(client.create(meta, stub), InvalidOptionError);
    await assert.rejects(client.update(meta, { ...patched }), InvalidOptionError);
    const terminating = await client.delete(meta, { namespace: NS, name: 'm-b' });
    assert.equal(terminating.kind, 'PartialObjectMetadata', 'held by its finalizer, the object comes back as metadata');
    assert.ok((terminating as PartialObjectMetadata).metadata.deletionTimestamp);
    assert.equal((terminating as PartialObjectMetadata)['data'], undefined);
    await client.patch(meta, { namespace: NS, name: 'm-b' }, { metadata: { finalizers: null } }, 'merge');
    await assert.rejects(client.get(meta, { namespace: NS, name: 'm-b' }), (e: Error) => e.constructor.name === 'StatusError');
    await client.create(ConfigMapResource, { metadata: { namespace: NS, name: 'm-d' } });
    const gone = await client.delete(meta, { namespace: NS, name: 'm-d' });
    assert.equal(gone.kind, 'Status', 'a Status answer passes through unprojected');
  });

  it('asks for PartialObjectMetadata with a plain JSON fallback, and projects whole objects from a server that ignores it', async () => {
    const whole = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: 'ns', name: 'x', resourceVersion: '7', labels: { a: 'b' } },
      data: { big: 'x'.repeat(100) },
    };
    await using srv = await startFixtureServer((req, res) => {
      if (req.url.includes('watch=true')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`${JSON.stringify({ type: 'ADDED', object: whole })}\n`);
        res.end(
          `${JSON.stringify({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '8' } } })}\n`,
        );
      } else if (req.url.endsWith('/configmaps/x')) sendJson(res, 200, whole);
      else
        sendJson(res, 200, {
          apiVersion: 'v1',
          kind: 'ConfigMapList',
          metadata: { resourceVersion: '7' },
          items: [{ metadata: whole.metadata, data: whole.data }],
        });
    });
    const c = createClient({ server: srv.url, qps: -1 });
    try {
      const got = await c.get(meta, { namespace: 'ns', name: 'x' });
      const list = await c.list(meta, { namespace: 'ns' });
      const evs = await take(await c.watch(meta, { namespace: 'ns' }), 2);
      const plain = await c.get(ConfigMapResource, { namespace: 'ns', name: 'x' });
      assert.deepEqual(
        srv.requests.map((r) => r.headers.accept),
        [
          'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
          'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
          'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
          'application/json',
        ],
      );
      assert.deepEqual(got, { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: whole.metadata });
      assert.equal(list.kind, 'PartialObjectMetadataList');
      assert.equal(list.metadata.resourceVersion, '7');
      assert.deepEqual(list.items, [{ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: whole.metadata }]);
      assert.deepEqual(evs[0], {
        type: 'ADDED',
        object: { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: whole.metadata },
      });
      assert.equal(evs[1]?.type, 'BOOKMARK', 'bookmarks pass through untouched');
      assert.deepEqual(plain.data, whole.data, 'the full descriptor still reads whole objects');
    } finally {
      c.close();
    }
  });
});
