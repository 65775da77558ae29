// Imports the cache's private RealFIFO: unit tests of the queue between reflector and store.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IndexedStore } from 'kube-converge/cache';
import type { KubeObject } from 'kube-converge/meta';
import { cm } from './fake-client.js';
import { RealFIFO, type Delta, type DeltaSink } from '../../src/cache/fifo.js';

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
    assert.deepEqual(
      s
        .index('byLabel', cm('q', {}, 'ns', { a: 'red', b: 'blue' }))
        .map((o) => o.metadata.name)
        .sort(),
      ['a', 'b', 'c'],
    );
    s.upsert('ns/a', cm('a', {}, 'ns', { x: 'green' }));
    assert.deepEqual(s.indexKeys('byLabel', 'blue'), ['other/c']);
    s.remove('other/c');
    assert.deepEqual(s.listIndexFuncValues('byLabel').sort(), ['green', 'red'], 'emptied values are dropped');
    assert.deepEqual(
      s
        .byIndex('namespace', 'ns')
        .map((o) => o.metadata.name)
        .sort(),
      ['a', 'b'],
    );
    assert.deepEqual(s.listIndexFuncValues('namespace'), ['ns']);
  });

  it('rejects unknown index names and conflicting addIndexers; indexes existing items when adding', () => {
    const s = make();
    s.upsert('ns/a', cm('a'));
    assert.throws(() => s.byIndex('nope', 'x'), { code: 'CONVERGE_INDEXER', message: 'Index with name nope does not exist' });
    assert.throws(() => s.addIndexers({ byLabel }), { code: 'CONVERGE_INDEXER' });
    assert.throws(
      () => s.addIndexers({ namespace: () => ['x'] }),
      { code: 'CONVERGE_INDEXER' },
      'the built-in namespace index cannot be replaced',
    );
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
    s.addIndexers({
      bad: () => {
        throw new Error('oops');
      },
    });
    s.upsert('ns/a', cm('a'));
    assert.equal(s.getByKey('ns/a')?.metadata.name, 'a');
    assert.equal(errors.length, 1);
  });
});

describe('RealFIFO', () => {
  /** A sink that records what reaches it; `during` runs inside each apply (to queue more, or to throw). */
  const recorder = (during: (d: Delta) => void = () => {}) => {
    const applied: [Delta['type'], boolean][] = [];
    const failed: unknown[] = [];
    const batches: boolean[] = [];
    const sink: DeltaSink<KubeObject> = {
      apply: (d, initial) => {
        applied.push([d.type, initial]);
        during(d);
      },
      applyFailed: (e) => void failed.push(e),
      batchApplied: (synced) => void batches.push(synced),
    };
    return { sink, applied, failed, batches };
  };

  it("pushes each delta into its sink at once, in the producer's call, when nothing is queued ahead of it", () => {
    const r = recorder();
    const f = new RealFIFO<KubeObject>({ sink: r.sink });
    f.add(cm('a'));
    assert.deepEqual(r.applied, [['Added', true]]);
    f.update(cm('a'));
    assert.deepEqual(r.applied, [
      ['Added', true],
      ['Updated', true],
    ]);
    assert.equal(f.length, 0);
    assert.deepEqual(r.batches, [false, false]);
  });

  it('delivers every delta in order, without merging, and syncs only after the first replace was applied', () => {
    const r = recorder();
    const f = new RealFIFO<KubeObject>({ sink: r.sink });
    assert.equal(f.hasSynced(), false);
    f.replace([cm('a'), cm('b')], '10');
    assert.equal(f.hasSynced(), true);
    f.update(cm('a'));
    f.update(cm('a'));
    f.delete(cm('b'));
    assert.deepEqual(r.applied, [
      ['ReplacedAll', true],
      ['Updated', false],
      ['Updated', false],
      ['Deleted', false],
    ]);
    assert.deepEqual(r.batches, [true, true, true, true]);
  });

  it('a delta queued while the sink is applying waits its turn behind the one being applied', () => {
    let f!: RealFIFO<KubeObject>;
    const order: string[] = [];
    const r = recorder((d) => {
      if (d.type === 'Added') {
        order.push(`apply ${d.key}`);
        if (d.key === 'default/a') f.add(cm('b'));
        order.push(`done ${d.key}`);
      }
    });
    f = new RealFIFO<KubeObject>({ sink: r.sink });
    f.add(cm('a'));
    assert.deepEqual(order, ['apply default/a', 'done default/a', 'apply default/b', 'done default/b']);
  });

  it('applies a backlog a batch at a time, letting other I/O run between batches, and holds the producer back above the high-water mark', async () => {
    let f!: RealFIFO<KubeObject>;
    let queued = false;
    const r = recorder(() => {
      if (queued) return;
      queued = true;
      for (let i = 0; i < 5; i++) f.add(cm(`more-${i}`));
    });
    f = new RealFIFO<KubeObject>({ sink: r.sink, batch: 2, highWater: 3 });
    f.add(cm('a'));
    assert.equal(r.applied.length, 2);
    assert.equal(f.length, 4);
    const room = f.waitForRoom();
    assert.ok(room);
    let resolved = false;
    void room.then(() => (resolved = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(r.applied.length, 4);
    assert.equal(resolved, true);
    assert.equal(f.waitForRoom(), undefined);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(r.applied.length, 6);
    assert.equal(f.length, 0);
  });

  it("queues objects transformed but not frozen: freezing is the sink's business", () => {
    let seen: KubeObject | undefined;
    const sink: DeltaSink<KubeObject> = {
      apply: (d) => {
        if (d.type === 'Added') seen = d.object;
      },
      applyFailed: () => {},
      batchApplied: () => {},
    };
    const f = new RealFIFO<KubeObject>({ sink, transform: (o) => ({ ...o, extra: 1 }) });
    f.add(cm('a'));
    assert.equal(seen?.['extra'], 1);
    assert.equal(Object.isFrozen(seen!.metadata), false);
  });

  it('an exception while applying one delta is reported and does not lose the next ones', () => {
    const r = recorder((d) => {
      if (d.type === 'Added' && d.key === 'default/a') throw new Error('x');
    });
    const f = new RealFIFO<KubeObject>({ sink: r.sink });
    f.add(cm('a'));
    f.add(cm('b'));
    assert.deepEqual(
      r.applied.map(([t]) => t),
      ['Added', 'Added'],
    );
    assert.equal(r.failed.length, 1);
    assert.equal(f.length, 0);
  });

  it('applies nothing more once closed, and never holds the producer back after that', () => {
    const r = recorder();
    const f = new RealFIFO<KubeObject>({ sink: r.sink, highWater: 1 });
    f.close();
    f.add(cm('a'));
    assert.deepEqual(r.applied, []);
    assert.equal(f.waitForRoom(), undefined);
  });
});
