import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SharedInformerFactory } from 'kube-converge/cache';
import { ConfigMapResource, FakeClock, parseLabelSelector, SecretResource, type KubeObject } from 'kube-converge/meta';
import { cm, FakeClient, settle } from './fake-client.js';
import { captureLogger } from './helpers.js';

describe('SharedInformerFactory and listers', () => {
  it('shares one informer per (resource, namespace, selectors)', () => {
    const f = new SharedInformerFactory({ client: new FakeClient(), clock: new FakeClock() });
    const a = f.informerFor(ConfigMapResource);
    assert.equal(f.informerFor(ConfigMapResource), a);
    assert.notEqual(f.informerFor(ConfigMapResource, { namespace: 'x' }), a);
    assert.notEqual(f.informerFor(ConfigMapResource, { labelSelector: 'app=web' }), a);
    assert.notEqual(f.informerFor(SecretResource), a);
  });

  it('starts informers, waits for their caches, and lists through the namespace index with a label selector', async () => {
    const client = new FakeClient();
    client.upsert(cm('a', {}, 'ns1', { app: 'web' }));
    client.upsert(cm('b', {}, 'ns1', { app: 'db' }));
    client.upsert(cm('c', {}, 'ns2', { app: 'web' }));
    const f = new SharedInformerFactory({ client, clock: new FakeClock() });
    const lister = f.lister(ConfigMapResource);
    const ac = new AbortController();
    f.start(ac.signal);
    await f.waitForCacheSync();
    assert.equal(lister.get('ns1', 'a')?.metadata.name, 'a');
    assert.equal(lister.get('ns1', 'zzz'), undefined);
    assert.deepEqual(
      lister
        .list('ns1')
        .map((o) => o.metadata.name)
        .sort(),
      ['a', 'b'],
    );
    assert.deepEqual(
      lister
        .list(undefined, parseLabelSelector('app=web'))
        .map((o) => o.metadata.name)
        .sort(),
      ['a', 'c'],
    );
    assert.deepEqual(lister.list('ns2', parseLabelSelector('app!=web')), []);
    ac.abort();
    await f.stopped();
  });

  it('start() also starts informers requested after an earlier start()', async () => {
    const client = new FakeClient();
    const f = new SharedInformerFactory({ client, clock: new FakeClock() });
    const ac = new AbortController();
    f.informerFor(ConfigMapResource);
    f.start(ac.signal);
    const late = f.informerFor(ConfigMapResource, { namespace: 'late' });
    await settle();
    assert.equal(late.hasSynced(), false);
    f.start(ac.signal);
    await f.waitForCacheSync();
    assert.equal(late.hasSynced(), true);
    assert.equal(client.lists().at(-1)?.namespace, 'late');
    ac.abort();
    await f.stopped();
  });

  it('waitForCacheSync rejects when its signal aborts before the caches sync', async () => {
    const client = new FakeClient();
    client.listErrors.push(new Error('down'));
    const f = new SharedInformerFactory({ client, clock: new FakeClock() });
    f.informerFor(ConfigMapResource);
    const ac = new AbortController();
    f.start(ac.signal);
    const wait = new AbortController();
    const synced = f.waitForCacheSync({ signal: wait.signal });
    await settle();
    wait.abort(new Error('timed out'));
    await assert.rejects(synced, /timed out/);
    ac.abort();
    await f.stopped();
  });

  it('gives callers with different transforms different informers, each storing its own shape', async () => {
    const client = new FakeClient();
    client.upsert(cm('a', { k: 'v' }));
    const f = new SharedInformerFactory({ client, clock: new FakeClock() });
    const tagged = (obj: KubeObject): KubeObject => ({ ...obj, metadata: { ...obj.metadata, labels: { tagged: 'yes' } } });
    const plain = f.informerFor(ConfigMapResource);
    const shaped = f.informerFor(ConfigMapResource, { transform: tagged });
    assert.notEqual(shaped, plain);
    assert.equal(f.informerFor(ConfigMapResource, { transform: tagged }), shaped, 'the same function shares the informer');
    assert.notEqual(f.informerFor(ConfigMapResource, { transform: (o: KubeObject) => tagged(o) }), shaped, 'another function gets its own');
    const ac = new AbortController();
    f.start(ac.signal);
    await f.waitForCacheSync();
    assert.equal(plain.getIndexer().getByKey('default/a')?.metadata.labels, undefined);
    assert.deepEqual(shaped.getIndexer().getByKey('default/a')?.metadata.labels, { tagged: 'yes' });
    ac.abort();
    await f.stopped();
  });

  it("a per-informer transform replaces the factory's, and naming the factory's own transform shares its informer", () => {
    const strip = (obj: KubeObject): KubeObject => obj;
    const f = new SharedInformerFactory({ client: new FakeClient(), clock: new FakeClock(), transform: strip });
    const byDefault = f.informerFor(ConfigMapResource);
    assert.equal(f.informerFor(ConfigMapResource, { transform: strip }), byDefault);
    assert.notEqual(f.informerFor(ConfigMapResource, { transform: (o: KubeObject) => o }), byDefault);
  });

  it('stops an informer whose own signal aborts while the others run, drops it, and builds a fresh one on the next ask', async () => {
    const client = new FakeClient();
    client.upsert(cm('a'));
    const f = new SharedInformerFactory({ client, clock: new FakeClock() });
    const all = f.informerFor(ConfigMapResource);
    const own = new AbortController();
    const shard = f.informerFor(ConfigMapResource, {
      shardSelector: "shardRange(object.metadata.namespace, '0x0', '0x8000000000000000')",
      signal: own.signal,
    });
    assert.notEqual(f.informerFor(ConfigMapResource, { signal: own.signal }), all, 'a stop signal is part of the collection');
    const ac = new AbortController();
    f.start(ac.signal);
    await all.waitForSync();
    await settle();
    own.abort(new Error('shard released'));
    await settle();
    assert.equal(shard.status().phase, 'stopped');
    assert.notEqual(all.status().phase, 'stopped', 'the other informers keep running');
    const again = new AbortController();
    const fresh = f.informerFor(ConfigMapResource, {
      shardSelector: "shardRange(object.metadata.namespace, '0x0', '0x8000000000000000')",
      signal: again.signal,
    });
    assert.notEqual(fresh, shard);
    f.start(ac.signal);
    await settle();
    assert.notEqual(fresh.status().phase, 'idle', 'the fresh informer was started by the next start()');
    ac.abort();
    await f.stopped();
    assert.equal(fresh.status().phase, 'stopped');
  });

  it('drops an informer whose signal aborts before it was started, and never runs it', async () => {
    const client = new FakeClient();
    const f = new SharedInformerFactory({ client, clock: new FakeClock() });
    const own = new AbortController();
    const dropped = f.informerFor(ConfigMapResource, { signal: own.signal });
    own.abort();
    const ac = new AbortController();
    f.start(ac.signal);
    await settle();
    assert.equal(dropped.status().phase, 'idle');
    assert.equal(client.lists().length, 0);
    ac.abort();
    await f.stopped();
  });

  it('refuses a signal that is already aborted, with an error naming the option', () => {
    const f = new SharedInformerFactory({ client: new FakeClient(), clock: new FakeClock() });
    assert.throws(() => f.informerFor(ConfigMapResource, { signal: AbortSignal.abort() }), /informerFor\.signal.*already aborted/);
  });

  it('logs a run that rejects at error level, naming the resource, instead of leaving it unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const logger = captureLogger();
      const f = new SharedInformerFactory({ client: new FakeClient(), clock: new FakeClock(), logger });
      const informer = f.informerFor(ConfigMapResource, { namespace: 'shop' });
      // No real informer rejects its run; stand in for the bug this guards against.
      informer.run = () => Promise.reject(new Error('bug in run'));
      const ac = new AbortController();
      f.start(ac.signal);
      await f.stopped();
      await settle();
      const errors = logger.lines.filter((l) => l.level === 'error');
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.fields.resource, 'configmaps.v1 namespace=shop');
      assert.match(String(errors[0]!.fields.err), /bug in run/);
      assert.deepEqual(unhandled, []);
      ac.abort();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
