import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IndexedStore, RealFIFO, type Delta } from 'kube-converge/cache';
import { deepFreeze, type KubeObject } from 'kube-converge/meta';
import { cm } from './fake-client.js';

const withRV = (o: KubeObject, rv: string): KubeObject => ({ ...o, metadata: { ...o.metadata, resourceVersion: rv } });
const byLabel = (o: KubeObject) => Object.values(o.metadata.labels ?? {});

describe('IndexedStore', () => {
  const make = (errors: unknown[] = []) => new IndexedStore({ indexers: { byLabel }, onIndexError: (_n, _k, e) => void errors.push(e) });

  it('keys objects by namespace/name, keeps the namespace index and multi-valued indexes in step on updates and deletes', () => {
    const s = make();
    s.upsert('ns/a', cm('a', {}, 'ns', { x: 'red', y: 'blue' }));
    s.upsert('ns/b', cm('b', {}, 'ns', { x: 'red' }));
    s.upsert('other/c', cm('c', {}, 'other', { x: 'blue' }));
    assert.deepEqual(s.indexKeys('byLabel', 'blue'), ['ns/a', 'other/c']);
    assert.deepEqual(s.index('byLabel', cm('q', {}, 'ns', { a: 'red', b: 'blue' })).map((o) => o.metadata.name).sort(), ['a', 'b', 'c']);
    s.upsert('ns/a', cm('a', {}, 'ns', { x: 'green' }));
    assert.deepEqual(s.indexKeys('byLabel', 'blue'), ['other/c']);
    s.remove('other/c');
    assert.deepEqual(s.listIndexFuncValues('byLabel').sort(), ['green', 'red'], 'emptied values are dropped');
    assert.deepEqual(s.byIndex('namespace', 'ns').map((o) => o.metadata.name).sort(), ['a', 'b']);
    assert.deepEqual(s.listIndexFuncValues('namespace'), ['ns']);
  });

  it('rejects unknown index names and conflicting addIndexers; indexes existing items when adding', () => {
    const s = make();
    s.upsert('ns/a', cm('a'));
    assert.throws(() => s.byIndex('nope', 'x'), { code: 'CONVERGE_INDEXER', message: 'Index with name nope does not exist' });
    assert.throws(() => s.addIndexers({ byLabel }), { code: 'CONVERGE_INDEXER' });
    assert.throws(() => s.addIndexers({ namespace: () => ['x'] }), { code: 'CONVERGE_INDEXER' }, 'the built-in namespace index cannot be replaced');
    s.addIndexers({ byName: (o) => [o.metadata.name!] });
    assert.deepEqual(s.indexKeys('byName', 'a'), ['ns/a']);
  });

  it('replace swaps content and rebuilds indexes in one step', () => {
    const s = make();
    s.upsert('ns/a', cm('a', {}, 'ns', { x: 'red' }));
    s.replace(new Map([['ns/b', cm('b', {}, 'ns', { x: 'blue' })]]), '50');
    assert.deepEqual(s.listKeys(), ['ns/b']);
    assert.deepEqual(s.listIndexFuncValues('byLabel'), ['blue']);
    assert.equal(s.lastStoreSyncResourceVersion(), '50');
  });

  it('tracks lastStoreSyncResourceVersion from adds, deletes, replaces and bookmarks', () => {
    const s = make();
    assert.equal(s.lastStoreSyncResourceVersion(), '');
    s.upsert('ns/a', withRV(cm('a'), '7'));
    assert.equal(s.lastStoreSyncResourceVersion(), '7');
    s.remove('ns/a', withRV(cm('a'), '9'));
    assert.equal(s.lastStoreSyncResourceVersion(), '9');
    s.bookmark('12');
    assert.equal(s.lastStoreSyncResourceVersion(), '12');
    s.replace(new Map(), '15');
    assert.equal(s.lastStoreSyncResourceVersion(), '15');
  });

  it('an index function that throws is reported and the object is still stored', () => {
    const errors: unknown[] = [];
    const s = make(errors);
    s.addIndexers({ bad: () => { throw new Error('oops'); } });
    s.upsert('ns/a', cm('a'));
    assert.equal(s.getByKey('ns/a')?.metadata.name, 'a');
    assert.equal(errors.length, 1);
  });
});

describe('RealFIFO', () => {
  const fifo = () => new RealFIFO<KubeObject>({ freeze: (o) => deepFreeze(o) as KubeObject, onNonEmpty: () => {} });
  const drainAll = (f: RealFIFO<KubeObject>) => {
    const out: [Delta['type'], boolean][] = [];
    f.drain((d, initial) => void out.push([d.type, initial]), (e) => { throw e; }, 1000);
    return out;
  };

  it('tells its consumer when a delta lands in it while empty, and only then', () => {
    let calls = 0;
    const f = new RealFIFO<KubeObject>({ freeze: (o) => o, onNonEmpty: () => void calls++ });
    f.add(cm('a'));
    f.add(cm('b'));
    assert.equal(calls, 1);
    f.drain(() => {}, () => {}, 10);
    f.add(cm('c'));
    assert.equal(calls, 2);
  });

  it('applies back-pressure: waitForRoom is undefined below the high-water mark and resolves once drained below it', async () => {
    const f = new RealFIFO<KubeObject>({ freeze: (o) => o, onNonEmpty: () => {}, highWater: 2 });
    f.add(cm('a'));
    assert.equal(f.waitForRoom(), undefined);
    f.add(cm('b'));
    const room = f.waitForRoom();
    assert.ok(room);
    let resolved = false;
    void room.then(() => (resolved = true));
    await Promise.resolve();
    assert.equal(resolved, false);
    f.drain(() => {}, () => {}, 1);
    await Promise.resolve();
    assert.equal(resolved, true);
  });

  it('delivers every delta in order, without merging, and syncs only after the first replace was processed', () => {
    const f = fifo();
    f.replace([cm('a'), cm('b')], '10');
    f.update(cm('a'));
    f.update(cm('a'));
    f.delete(cm('b'));
    assert.equal(f.hasSynced(), false);
    assert.deepEqual(drainAll(f), [['ReplacedAll', true], ['Updated', false], ['Updated', false], ['Deleted', false]]);
    assert.equal(f.hasSynced(), true);
  });

  it('freezes (after the transform) what it queues', () => {
    const f = new RealFIFO<KubeObject>({ freeze: (o) => deepFreeze(o) as KubeObject, transform: (o) => ({ ...o, extra: 1 }), onNonEmpty: () => {} });
    f.add(cm('a'));
    let seen: KubeObject | undefined;
    f.drain((d) => { if (d.type === 'Added') seen = d.object; }, () => {}, 10);
    assert.equal(seen?.['extra'], 1);
    assert.equal(Object.isFrozen(seen!.metadata), true);
  });

  it('an exception while processing one delta does not lose the next ones', () => {
    const f = fifo();
    f.add(cm('a'));
    f.add(cm('b'));
    const errors: unknown[] = [];
    const seen: string[] = [];
    f.drain((d) => {
      if (d.type === 'Added') seen.push(d.key);
      if (seen.length === 1) throw new Error('x');
    }, (e) => void errors.push(e), 10);
    assert.deepEqual(seen, ['default/a', 'default/b']);
    assert.equal(errors.length, 1);
    assert.equal(f.length, 0);
  });
});
