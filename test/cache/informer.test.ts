import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from 'kube-converge/meta';
import { cm, goneStatus, settle } from './fake-client.js';
import { harness, recorder } from './helpers.js';

describe('SharedIndexInformer', () => {
  it('hasSynced turns true only after the first list has been applied, and waitForSync resolves then', async () => {
    const h = harness();
    h.client.upsert(cm('a'));
    const { events, handler } = recorder();
    const reg = h.informer.addEventHandler(handler);
    let synced = false;
    void h.informer.waitForSync().then(() => (synced = h.informer.getIndexer().list().length === 1));
    assert.equal(h.informer.hasSynced(), false);
    h.client.listErrors.push(new Error('boom'));
    h.start();
    await h.advance(0);
    assert.equal(h.informer.hasSynced(), false, 'a failed list does not count as synced');
    assert.equal(reg.hasSynced(), false);
    await h.advance(1200);
    assert.equal(h.informer.hasSynced(), true);
    assert.equal(synced, true);
    assert.deepEqual(events, ['add a 101 initial']);
    assert.equal(reg.hasSynced(), true);
    await h.stop();
  });

  it('waitForSync rejects with InformerStoppedError when the informer stops before it synced', async () => {
    const h = harness();
    h.client.listErrors.push(new Error('down'));
    h.start();
    const waiting = h.informer.waitForSync();
    await h.advance(0);
    await h.stop();
    await assert.rejects(waiting, { code: 'CONVERGE_INFORMER_STOPPED' });
    await assert.rejects(h.informer.waitForSync(), { code: 'CONVERGE_INFORMER_STOPPED' });
  });

  it('waitForSync rejects with the signal reason when aborted first', async () => {
    const h = harness();
    const ac = new AbortController();
    const p = h.informer.waitForSync({ signal: ac.signal });
    ac.abort(new Error('gave up'));
    await assert.rejects(p, /gave up/);
  });

  it('delivers adds, updates with the old object, and deletes, in order', async () => {
    const h = harness();
    const { events, handler } = recorder();
    h.informer.addEventHandler(handler);
    h.start();
    await h.advance(0);
    h.client.upsert(cm('a'));
    h.client.upsert(cm('a', { x: '1' }));
    h.client.upsert(cm('b'));
    h.client.remove('default/a');
    await h.advance(0);
    assert.deepEqual(events, ['add a 101', 'update a 101>102', 'add b 103', 'delete a 104']);
    assert.deepEqual(h.informer.getIndexer().listKeys(), ['default/b']);
    await h.stop();
  });

  it('objects deleted while the watch was stalled reach handlers as DeletedFinalStateUnknown tombstones after the 410 relist; changes coalesce', async () => {
    const h = harness();
    for (const n of ['a', 'b', 'c']) h.client.upsert(cm(n));
    const { events, handler } = recorder();
    h.informer.addEventHandler(handler);
    h.start();
    await h.advance(0);
    events.length = 0;
    h.client.watch0.paused = true; // the connection hangs: nothing more arrives
    h.client.remove('default/b');
    h.client.upsert(cm('a', { v: '2' }));
    h.client.upsert(cm('a', { v: '3' }));
    h.client.upsert(cm('d'));
    h.client.watch0.push({ type: 'ERROR', object: goneStatus() }); // what was missed is compacted away
    await h.advance(1200);
    assert.deepEqual(events, ['tombstone default/b 102', 'update a 101>106', 'add d 107']);
    const store = h.informer.getIndexer();
    assert.deepEqual(store.listKeys().sort(), ['default/a', 'default/c', 'default/d']);
    assert.deepEqual(store.getByKey('default/a')!['data'], { v: '3' });
    await h.stop();
  });

  it('a relist keeps the very same cached object for everything whose resourceVersion did not change', async () => {
    const h = harness();
    h.client.upsert(cm('a'));
    h.client.upsert(cm('b'));
    h.start();
    await h.advance(0);
    const a = h.informer.getIndexer().getByKey('default/a');
    const b = h.informer.getIndexer().getByKey('default/b');
    h.client.upsert(cm('b', { v: '2' }));
    h.client.watch0.paused = true;
    h.client.watch0.push({ type: 'ERROR', object: goneStatus() }); // what was missed is compacted away
    await h.advance(1200);
    assert.equal(h.client.lists().length, 2);
    assert.equal(h.informer.getIndexer().getByKey('default/a'), a, 'unchanged: same instance');
    assert.notEqual(h.informer.getIndexer().getByKey('default/b'), b);
    await h.stop();
  });

  it('a duplicate event (same resourceVersion) is not delivered again', async () => {
    const h = harness();
    const { events, handler } = recorder();
    h.informer.addEventHandler(handler);
    h.start();
    await h.advance(0);
    const a = h.client.upsert(cm('a'));
    h.client.watch0.push({ type: 'MODIFIED', object: structuredClone(a) });
    await h.advance(0);
    assert.deepEqual(events, ['add a 101']);
    await h.stop();
  });

  it('a handler added after sync gets the current store as initial adds, then live events; its registration syncs after them', async () => {
    const h = harness();
    h.client.upsert(cm('a'));
    h.client.upsert(cm('b'));
    h.start();
    await h.advance(0);
    const { events, handler } = recorder();
    const reg = h.informer.addEventHandler(handler);
    assert.equal(reg.hasSynced(), false);
    h.client.upsert(cm('c'));
    await h.advance(0);
    assert.deepEqual(events, ['add a 101 initial', 'add b 102 initial', 'add c 103']);
    assert.equal(reg.hasSynced(), true);
    await h.stop();
  });

  it('a slow (async, blocked) handler does not hold back other handlers or the store', async () => {
    const h = harness();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slowSeen: string[] = [];
    const slow = h.informer.addEventHandler({
      onAdd: async (o) => {
        slowSeen.push(o.metadata.name!);
        await gate;
      },
    });
    const { events, handler } = recorder();
    h.informer.addEventHandler(handler);
    h.start();
    await h.advance(0);
    for (let i = 0; i < 50; i++) h.client.upsert(cm(`o${i}`));
    await h.advance(0);
    assert.equal(events.length, 50);
    assert.equal(h.informer.getIndexer().list().length, 50);
    assert.deepEqual(slowSeen, ['o0']);
    assert.equal(slow.pending(), 49);
    release();
    await settle();
    assert.equal(slowSeen.length, 50);
    assert.deepEqual(slowSeen.slice(0, 3), ['o0', 'o1', 'o2']);
    assert.equal(slow.pending(), 0);
    await h.stop();
  });

  it('a throwing handler is isolated: counted, logged, and the next notifications still arrive', async () => {
    const h = harness();
    const seen: string[] = [];
    const bad = h.informer.addEventHandler({
      onAdd: (o) => {
        seen.push(o.metadata.name!);
        if (o.metadata.name === 'a') throw new Error('handler bug');
      },
      onUpdate: () => Promise.reject(new Error('async bug')),
    });
    const { events, handler } = recorder();
    h.informer.addEventHandler(handler);
    h.start();
    await h.advance(0);
    h.client.upsert(cm('a'));
    h.client.upsert(cm('b'));
    h.client.upsert(cm('b', { v: '2' }));
    h.client.upsert(cm('c'));
    await h.advance(0);
    assert.deepEqual(seen, ['a', 'b', 'c']);
    assert.equal(bad.errors(), 2);
    assert.equal(events.length, 4);
    assert.equal(h.logger.lines.filter((l) => l.level === 'error' && l.msg.startsWith('event handler failed')).length, 2);
    assert.equal(h.informer.status().phase, 'watching');
    await h.stop();
  });

  it('resync re-delivers the cache as updates with old === new, only to handlers whose period is due, never over a newer event', async () => {
    const h = harness({ informer: { resyncMs: 10_000 } });
    h.client.upsert(cm('a'));
    const fast = recorder();
    const none = recorder();
    const slow = recorder();
    h.informer.addEventHandler(fast.handler);
    h.informer.addEventHandler(none.handler, { resyncMs: 0 });
    h.informer.addEventHandler(slow.handler, { resyncMs: 30_000 });
    h.start();
    await h.advance(0);
    h.client.upsert(cm('a', { v: '2' }));
    await h.advance(10_000);
    assert.deepEqual(fast.events, ['add a 101 initial', 'update a 101>102', 'update a 102>102 same']);
    assert.deepEqual(none.events, ['add a 101 initial', 'update a 101>102']);
    assert.deepEqual(slow.events, ['add a 101 initial', 'update a 101>102']);
    await h.advance(20_000);
    assert.deepEqual(slow.events.slice(2), ['update a 102>102 same']);
    assert.equal(fast.events.length, 5);
    assert.equal(h.client.lists().length, 1, 'resync never relists');
    await h.stop();
  });

  it("a handler without its own resync period gets the informer's, not the shorter check period another handler set", async () => {
    const h = harness({ informer: { resyncMs: 60_000 } });
    h.client.upsert(cm('a'));
    const fast = recorder();
    const byDefault = recorder();
    h.informer.addEventHandler(fast.handler, { resyncMs: 10_000 });
    h.informer.addEventHandler(byDefault.handler);
    h.start();
    await h.advance(0);
    await h.advance(50_000);
    assert.equal(fast.events.filter((e) => e.endsWith('same')).length, 5);
    assert.deepEqual(byDefault.events, ['add a 101 initial'], 'not resynced every 10 s');
    await h.advance(10_000);
    assert.deepEqual(byDefault.events, ['add a 101 initial', 'update a 101>101 same']);
    await h.stop();
  });

  it('stores deep-frozen objects: mutating a cached object throws', async () => {
    const h = harness();
    h.client.upsert(cm('a', { k: 'v' }));
    h.start();
    await h.advance(0);
    const a = h.informer.getIndexer().getByKey('default/a')! as KubeObject & { data: Record<string, string> };
    assert.throws(() => {
      a.data['k'] = 'changed';
    }, TypeError);
    assert.throws(() => {
      a.metadata.name = 'x';
    }, TypeError);
    assert.equal(a.kind, 'ConfigMap', 'list items get apiVersion/kind filled in');
    await h.stop();
  });

  it('applies the transform before storing (e.g. dropping managedFields)', async () => {
    const h = harness({
      informer: {
        transform: (o) => {
          delete o.metadata.managedFields;
          return o;
        },
      },
    });
    h.client.upsert({ ...cm('a'), metadata: { namespace: 'default', name: 'a', managedFields: [{ manager: 'kubectl' }] } });
    h.start();
    await h.advance(0);
    assert.equal(h.informer.getIndexer().getByKey('default/a')!.metadata.managedFields, undefined);
    await h.stop();
  });

  it('a transform that throws for one object leaves that object out and logs it; the informer syncs and keeps watching', async () => {
    const h = harness({
      informer: {
        transform: (o) => {
          if (o.metadata.name?.startsWith('bad')) throw new Error('cannot transform');
          return o;
        },
      },
    });
    h.client.upsert(cm('good'));
    h.client.upsert(cm('bad-1'));
    h.start();
    await h.advance(0);
    assert.equal(h.informer.hasSynced(), true);
    h.client.upsert(cm('bad-2'));
    h.client.upsert(cm('good-2'));
    await h.advance(0);
    assert.deepEqual(h.informer.getIndexer().listKeys().sort(), ['default/good', 'default/good-2']);
    assert.equal(h.logger.lines.filter((l) => l.level === 'error' || l.level === 'warn').length, 2);
    assert.equal(h.informer.status().phase, 'watching');
    await h.stop();
  });

  it('supports named indexes with several values, added before or after start', async () => {
    const h = harness({ informer: { indexers: { byKey: (o) => Object.keys((o['data'] as Record<string, string>) ?? {}) } } });
    h.client.upsert(cm('a', { x: '1', y: '1' }));
    h.client.upsert(cm('b', { y: '1' }, 'other'));
    h.start();
    await h.advance(0);
    const idx = h.informer.getIndexer();
    assert.deepEqual(idx.indexKeys('byKey', 'y'), ['default/a', 'other/b']);
    assert.deepEqual(
      idx.byIndex('namespace', 'other').map((o) => o.metadata.name),
      ['b'],
    );
    h.informer.addIndexers({ byName: (o) => [o.metadata.name!] });
    assert.deepEqual(
      idx.byIndex('byName', 'a').map((o) => o.metadata.name),
      ['a'],
    );
    h.client.upsert(cm('a', { z: '1' }));
    await h.advance(0);
    assert.deepEqual(idx.indexKeys('byKey', 'y'), ['other/b']);
    assert.deepEqual(idx.listIndexFuncValues('byKey').sort(), ['y', 'z']);
    await h.stop();
  });

  it('a removed handler gets nothing more', async () => {
    const h = harness();
    const { events, handler } = recorder();
    const reg = h.informer.addEventHandler(handler);
    h.start();
    await h.advance(0);
    h.client.upsert(cm('a'));
    await h.advance(0);
    reg.remove();
    h.client.upsert(cm('b'));
    await h.advance(0);
    assert.deepEqual(events, ['add a 101']);
    await h.stop();
  });

  it('refuses handlers and indexes once stopped', async () => {
    const h = harness();
    h.start();
    await h.advance(0);
    await h.stop();
    assert.throws(() => h.informer.addEventHandler({}), { code: 'CONVERGE_INFORMER_STOPPED' });
    assert.throws(() => h.informer.addIndexers({ x: () => [] }), { code: 'CONVERGE_INFORMER_STOPPED' });
  });
});

describe('SharedIndexInformer over streaming lists (sendInitialEvents)', () => {
  it('relists by streaming after a stalled watch got 410 and delivers tombstones and coalesced updates the same way', async () => {
    const h = harness({ informer: { reflector: { watchList: true } } });
    for (const n of ['a', 'b']) h.client.upsert(cm(n));
    const { events, handler } = recorder();
    const reg = h.informer.addEventHandler(handler);
    h.start();
    await h.advance(0);
    assert.equal(reg.hasSynced(), true);
    assert.deepEqual(events, ['add a 101 initial', 'add b 102 initial']);
    events.length = 0;
    h.client.watch0.paused = true;
    h.client.remove('default/b');
    h.client.upsert(cm('a', { v: '2' }));
    h.client.upsert(cm('a', { v: '3' }));
    h.client.watch0.push({ type: 'ERROR', object: goneStatus() }); // what was missed is compacted away
    await h.advance(1200);
    assert.deepEqual(events, ['tombstone default/b 102', 'update a 101>105']);
    const streams = h.client.watchCalls();
    assert.equal(h.client.lists().length, 0);
    assert.deepEqual(
      streams.map((w) => [w.sendInitialEvents ?? false, w.resourceVersion]),
      [
        [true, undefined],
        [true, '102'],
      ],
    );
    await h.stop();
  });
});
