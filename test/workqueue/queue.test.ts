// Queue: de-duplication, dirty-while-processing, ordering, shutdown and drain, and its metrics.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, InvalidOptionError } from 'kube-converge/meta';
import { Queue, defaultKeyOf } from 'kube-converge/workqueue';
import type { GetResult } from 'kube-converge/workqueue';
import { prng, recordingProvider, settle } from './helpers.js';

const newQueue = <T = string>(opts: ConstructorParameters<typeof Queue<T>>[0] = {}) => new Queue<T>({ clock: new FakeClock(), ...opts });

async function item<T>(p: Promise<GetResult<T>>): Promise<T> {
  const r = await p;
  assert.equal(r.shutdown, false, 'expected an item, got shutdown');
  return r.item as T;
}

describe('Queue', () => {
  it('de-duplicates a key added several times while it is pending', async () => {
    const q = newQueue();
    q.add('a');
    q.add('b');
    q.add('a');
    q.add('a');
    assert.equal(q.len(), 2);
    assert.equal(await item(q.get()), 'a');
    assert.equal(await item(q.get()), 'b');
    assert.equal(q.len(), 0);
  });

  it('hands items out in FIFO order', async () => {
    const q = newQueue();
    for (const k of ['c', 'a', 'b', 'd']) q.add(k);
    const out = [];
    for (let i = 0; i < 4; i++) out.push(await item(q.get()));
    assert.deepEqual(out, ['c', 'a', 'b', 'd']);
  });

  it('de-duplicates reconcile requests by value, treating an empty namespace like an absent one', async () => {
    const q = newQueue<{ namespace?: string; name: string }>();
    q.add({ namespace: 'default', name: 'web' });
    q.add({ name: 'web', namespace: 'default' });
    q.add({ namespace: '', name: 'node-1' });
    q.add({ name: 'node-1' });
    assert.equal(q.len(), 2);
    assert.deepEqual(await item(q.get()), { namespace: 'default', name: 'web' });
    assert.equal(defaultKeyOf({ namespace: 'ns', name: 'x' }), 'ns/x');
    assert.equal(defaultKeyOf({ b: 1, a: [2, { d: 1, c: 2 }] }), defaultKeyOf({ a: [2, { c: 2, d: 1 }], b: 1 }));
    assert.notEqual(defaultKeyOf({ name: 'x', uid: '1' }), defaultKeyOf({ name: 'x' }));
  });

  it('asks for a keyOf option when the default cannot key an item', () => {
    const q = newQueue<unknown>();
    assert.throws(() => q.add(undefined), InvalidOptionError);
    assert.throws(() => q.add(() => 1), InvalidOptionError);
    assert.equal(q.len(), 0);
  });

  it('uses a keyOf option to compare items', async () => {
    const q = newQueue<{ id: number; payload: string }>({ keyOf: (x) => String(x.id) });
    q.add({ id: 1, payload: 'first' });
    q.add({ id: 1, payload: 'second' });
    assert.equal(q.len(), 1);
    assert.equal((await item(q.get())).payload, 'first', 'the first item added for a key is handed out');
  });

  it('re-queues a key added while it is processing exactly once, after done()', async () => {
    const q = newQueue();
    q.add('a');
    const a = await item(q.get());
    q.add('a');
    q.add('a');
    q.add('a');
    assert.equal(q.len(), 0, 'a key being processed is parked as dirty, not queued');
    let second = false;
    void q.get().then(() => (second = true));
    await settle();
    assert.equal(second, false, 'a key is never handed to a second worker while the first one holds it');
    q.done(a);
    await settle();
    assert.equal(second, true);
    q.done('a');
    assert.equal(q.len(), 0, 'exactly one more pass');
  });

  it('wakes one waiting get() per added item, in the order the callers waited', async () => {
    const q = newQueue();
    const got: string[] = [];
    const waiters = [0, 1, 2].map((i) => q.get().then((r) => got.push(`${i}:${r.item}`)));
    q.add('x');
    await settle();
    assert.deepEqual(got, ['0:x']);
    q.add('y');
    q.add('z');
    await Promise.all(waiters);
    assert.deepEqual(got, ['0:x', '1:y', '2:z']);
  });

  it('never hands one key to two of many concurrent workers, and processes every add', async () => {
    const rand = prng(42);
    const q = newQueue();
    const active = new Set<string>();
    const lastAdd = new Map<string, number>();
    const lastStart = new Map<string, number>();
    let tick = 0;
    let passes = 0;
    const worker = async (): Promise<void> => {
      for (;;) {
        const r = await q.get();
        if (r.shutdown) return;
        assert.ok(!active.has(r.item), `key ${r.item} handed to two workers`);
        active.add(r.item);
        lastStart.set(r.item, ++tick);
        passes++;
        const spins = Math.floor(rand() * 5);
        for (let i = 0; i < spins; i++) await Promise.resolve();
        active.delete(r.item);
        q.done(r.item);
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    for (let round = 0; round < 400; round++) {
      for (let i = 0; i < 10; i++) {
        const key = `k${Math.floor(rand() * 200)}`;
        lastAdd.set(key, ++tick);
        q.add(key);
      }
      const spins = Math.floor(rand() * 4);
      for (let i = 0; i < spins; i++) await Promise.resolve();
    }
    while (q.len() > 0 || active.size > 0) await Promise.resolve();
    await q.shutDownWithDrain();
    await Promise.all(workers);
    for (const [key, added] of lastAdd) {
      assert.ok((lastStart.get(key) ?? 0) > added, `the last add of ${key} was never processed`);
    }
    assert.ok(passes < 4000, `adds were coalesced (${passes} passes for 4000 adds)`);
  });

  it('still hands out queued items after shutDown(), then reports shutdown', async () => {
    const q = newQueue();
    q.add('a');
    q.add('b');
    q.shutDown();
    q.add('c');
    assert.equal(q.shuttingDown(), true);
    assert.equal(await item(q.get()), 'a');
    assert.equal(await item(q.get()), 'b');
    assert.deepEqual(await q.get(), { item: undefined, shutdown: true });
  });

  it('wakes every waiting get() with shutdown', async () => {
    const q = newQueue();
    const waiting = [q.get(), q.get()];
    q.shutDown();
    assert.deepEqual(await Promise.all(waiting), [
      { item: undefined, shutdown: true },
      { item: undefined, shutdown: true },
    ]);
  });

  it('shutDownWithDrain() waits for in-flight items but not for unclaimed queued ones', async () => {
    const q = newQueue();
    q.add('a');
    q.add('b');
    q.add('c');
    const a = await item(q.get());
    const b = await item(q.get());
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    await settle();
    assert.equal(drained, false);
    q.done(a);
    await settle();
    assert.equal(drained, false, 'b is still in flight');
    q.done(b);
    await drain;
    assert.equal(q.len(), 1, 'c was never claimed and stays queued');
  });

  it('re-queues a key made dirty before shutdown when its worker finishes during the drain', async () => {
    const q = newQueue();
    q.add('a');
    const a = await item(q.get());
    q.add('a');
    const drain = q.shutDownWithDrain();
    q.done(a);
    await drain;
    assert.equal(await item(q.get()), 'a');
    q.done('a');
    assert.deepEqual(await q.get(), { item: undefined, shutdown: true });
  });

  it('lets a later shutDown() release a pending drain', async () => {
    const q = newQueue();
    q.add('a');
    await q.get();
    let released = false;
    const drain = q.shutDownWithDrain().then(() => (released = true));
    await settle();
    assert.equal(released, false, 'a is still in flight');
    q.shutDown();
    await drain;
    assert.equal(released, true);
  });

  it('resolves shutDownWithDrain() at once when nothing is in flight', async () => {
    const q = newQueue();
    let released = false;
    void q.shutDownWithDrain().then(() => (released = true));
    await settle(1);
    assert.equal(released, true);
    assert.equal(q.shuttingDown(), true);
  });

  it('rejects done() for an item that is not being processed', () => {
    const q = newQueue();
    q.add('a');
    assert.throws(() => q.done('a'), /not being processed/);
  });

  it('reports depth, adds, queue latency and work duration at client-go update points', async () => {
    const clock = new FakeClock();
    const { provider, m } = recordingProvider();
    const q = new Queue<string>({ name: 'q', clock, metricsProvider: provider });
    assert.deepEqual([...m.names], ['q']);
    q.add('a');
    q.add('a');
    q.add('b');
    assert.equal(m.depth, 2);
    assert.equal(m.adds, 2);
    await clock.advance(2000);
    const a = await item(q.get());
    assert.equal(m.depth, 1);
    assert.deepEqual(m.latency, [2]);
    q.add('a'); // newly dirty while processing: counted, although not queued
    assert.equal(m.depth, 2);
    assert.equal(m.adds, 3);
    await clock.advance(500);
    assert.deepEqual(m.unfinished.at(-1), 0.5);
    assert.deepEqual(m.longestRunning.at(-1), 0.5);
    q.done(a);
    assert.deepEqual(m.workDuration, [0.5]);
    assert.equal(await item(q.get()), 'b');
    assert.equal(await item(q.get()), 'a');
    assert.deepEqual(m.latency, [2, 2.5, 0.5], 'the second pass of a waited from the add made while it was processing');
    assert.equal(m.depth, 0);
  });

  it('keeps no metrics and arms no timer without a provider or without a name', () => {
    const clock = new FakeClock();
    new Queue<string>({ clock });
    new Queue<string>({ clock, metricsProvider: recordingProvider().provider });
    assert.equal(clock.pendingTimers(), 0);
    const q = new Queue<string>({ clock, name: 'q', metricsProvider: recordingProvider().provider });
    assert.equal(clock.pendingTimers(), 1, 'the 500 ms unfinished-work timer');
    q.shutDown();
    assert.equal(clock.pendingTimers(), 0, 'shutdown stops the unfinished-work timer');
  });
});
