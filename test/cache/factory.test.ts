import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SharedInformerFactory } from 'kube-converge/cache';
import { ConfigMapResource, FakeClock, parseLabelSelector, SecretResource } from 'kube-converge/meta';
import { cm, FakeClient, settle } from './fake-client.js';

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
    assert.deepEqual(lister.list('ns1').map((o) => o.metadata.name).sort(), ['a', 'b']);
    assert.deepEqual(lister.list(undefined, parseLabelSelector('app=web')).map((o) => o.metadata.name).sort(), ['a', 'c']);
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
});
