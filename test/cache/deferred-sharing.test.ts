// Imports the cache's private deferred sharing (src/cache/deferred-sharing.ts), which no face exports.
// A cache that does not freeze shares a watched object's managedFields' empty objects only once the
// object has been current for a while: at the pass SHARE_AFTER_MS after the first object noted, or at
// once when PENDING_LIMIT wait. A version replaced or deleted before its pass is never walked; a listed
// object is shared as it arrives. Sharing never changes a value.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, type KubeObject } from 'kube-converge/meta';
import { DeferredSharing, PENDING_LIMIT, SHARE_AFTER_MS } from '../../src/cache/deferred-sharing.js';
import { cm } from './fake-client.js';
import { harness } from './helpers.js';

/** A ConfigMap as the API server returns it, with the managedFields entry an update leaves. */
function withFields(name: string, value: string): KubeObject {
  const obj = cm(name, { a: value, b: value });
  obj.metadata.managedFields = [
    {
      manager: 'kubectl',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2026-01-02T03:04:05Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } },
    },
  ];
  return JSON.parse(JSON.stringify(obj)) as KubeObject;
}

/** The `f:data` member of the object's first managedFields entry. */
const dataFields = (o: KubeObject): Record<string, object> =>
  (o.metadata.managedFields![0]!.fieldsV1 as { 'f:data': Record<string, object> })['f:data'];

/** Whether the object's empty managedFields objects are the one shared frozen `{}`. */
const shared = (o: KubeObject): boolean => {
  const f = dataFields(o);
  return Object.isFrozen(f['f:a']) && f['f:a'] === f['f:b'] && f['f:a'] === f['.'];
};

function setup(): { clock: FakeClock; store: Map<string, KubeObject>; sharing: DeferredSharing<KubeObject> } {
  const clock = new FakeClock();
  const store = new Map<string, KubeObject>();
  return { clock, store, sharing: new DeferredSharing(clock, (key) => store.get(key)) };
}

describe('deferred sharing of managedFields empty objects', () => {
  it('shares a noted object at the pass SHARE_AFTER_MS later, not before, and changes no value', async () => {
    const { clock, store, sharing } = setup();
    const obj = withFields('a', '1');
    const decoded = JSON.parse(JSON.stringify(obj)) as KubeObject;
    store.set('default/a', obj);
    sharing.note('default/a', obj);
    assert.equal(clock.pendingTimers(), 1);
    await clock.advance(SHARE_AFTER_MS - 1);
    assert.equal(shared(obj), false, 'not yet');
    await clock.advance(1);
    assert.equal(shared(obj), true);
    assert.deepEqual(obj, decoded);
    assert.equal(clock.pendingTimers(), 0, 'nothing pending, no timer');
  });

  it('never walks a version replaced or deleted before its pass', async () => {
    const { clock, store, sharing } = setup();
    const [v1, v2, gone] = [withFields('a', '1'), withFields('a', '2'), withFields('b', '1')];
    store.set('default/a', v1);
    sharing.note('default/a', v1);
    store.set('default/b', gone);
    sharing.note('default/b', gone);
    store.set('default/a', v2);
    sharing.note('default/a', v2);
    store.delete('default/b');
    assert.equal(clock.pendingTimers(), 1, 'one timer for every object noted before the pass');
    await clock.advance(SHARE_AFTER_MS);
    assert.equal(shared(v2), true);
    assert.equal(shared(v1), false, 'the replaced version');
    assert.equal(shared(gone), false, 'the deleted object');
  });

  it('runs the pass at once when PENDING_LIMIT objects wait', () => {
    const { clock, store, sharing } = setup();
    const objs = Array.from({ length: PENDING_LIMIT }, (_, i) => withFields(`o${i}`, '1'));
    objs.forEach((o, i) => {
      store.set(`default/o${i}`, o);
      sharing.note(`default/o${i}`, o);
    });
    assert.ok(objs.every(shared), 'all shared without the clock moving');
    assert.equal(clock.pendingTimers(), 0);
  });

  it('notes nothing for an object without managedFields, and stop drops what is pending', async () => {
    const { clock, store, sharing } = setup();
    const bare = cm('bare', { a: '1' });
    store.set('default/bare', bare);
    sharing.note('default/bare', bare);
    assert.equal(clock.pendingTimers(), 0, 'no managedFields, no pass');
    const obj = withFields('a', '1');
    store.set('default/a', obj);
    sharing.note('default/a', obj);
    sharing.stop();
    assert.equal(clock.pendingTimers(), 0);
    await clock.advance(SHARE_AFTER_MS);
    assert.equal(shared(obj), false);
  });

  it('in a production informer, shares a listed object at once and a watched one a second after it arrived', async () => {
    const h = harness({ informer: { freeze: false } });
    h.client.upsert(withFields('listed', '1'));
    h.start();
    await h.advance(0);
    const indexer = h.informer.getIndexer();
    assert.equal(shared(indexer.getByKey('default/listed')!), true, 'listed: at once');
    h.client.upsert(withFields('listed', '2'));
    await h.advance(0);
    const watched = indexer.getByKey('default/listed')!;
    assert.equal((watched as KubeObject & { data: Record<string, string> }).data['a'], '2');
    assert.equal(shared(watched), false, 'watched: not yet');
    await h.advance(SHARE_AFTER_MS);
    assert.equal(shared(watched), true, 'watched: after the pass');
    assert.equal(Object.isFrozen(watched), false, 'nothing else is frozen');
    h.client.upsert(withFields('listed', '3'));
    await h.advance(0);
    await h.stop();
    assert.equal(h.clock.pendingTimers(), 0, 'a stopped informer leaves no pass behind');
  });
});
