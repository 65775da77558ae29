// PriorityQueue with a FakeClock: priority and readiness merge rules, parking while processing,
// metrics and shutdown.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, InvalidOptionError } from 'kube-converge/meta';
import { PriorityQueue, itemExponentialFailureRateLimiter } from 'kube-converge/workqueue';
import { prng, rateLimitedDelays, recordingProvider, settle } from './helpers.js';

function setup() {
  const clock = new FakeClock();
  const q = new PriorityQueue<string>({ clock });
  return { clock, q };
}

async function drainReady(q: PriorityQueue<string>): Promise<string[]> {
  const out: string[] = [];
  while (q.len() > 0) {
    const r = await q.getWithPriority();
    assert.equal(r.shutdown, false);
    out.push(`${r.item}@${r.priority}`);
    q.done(r.item!);
  }
  return out;
}

describe('PriorityQueue', () => {
  it('hands out higher priorities first and keeps FIFO order within a priority', async () => {
    const { q } = setup();
    q.add('a');
    q.addWithOpts({ priority: 10 }, 'b', 'c');
    q.addWithOpts({ priority: -100 }, 'low');
    q.add('d');
    q.addWithOpts({ priority: 10 }, 'e');
    assert.deepEqual(await drainReady(q), ['b@10', 'c@10', 'e@10', 'a@0', 'd@0', 'low@-100']);
  });

  it('de-duplicates a queued key and keeps the higher of its priorities', async () => {
    const { q } = setup();
    q.addWithOpts({ priority: 5 }, 'a');
    q.add('b');
    q.addWithOpts({ priority: 1 }, 'a');
    q.add('a');
    assert.equal(q.len(), 2);
    assert.deepEqual(await drainReady(q), ['a@5', 'b@0']);
  });

  it('moves a raised key to the end of its new priority level, and a lowered one nowhere', async () => {
    const { q } = setup();
    q.addWithOpts({ priority: 1 }, 'x', 'y');
    q.add('a');
    q.add('b');
    q.addWithOpts({ priority: 1 }, 'b');
    q.addWithOpts({ priority: 0 }, 'x');
    assert.deepEqual(await drainReady(q), ['x@1', 'y@1', 'b@1', 'a@0']);
  });

  it('promotes waiting items when their time comes, behind items that were already ready', async () => {
    const { clock, q } = setup();
    q.addAfter('delayed', 100);
    q.add('ready');
    assert.equal(q.len(), 1, 'waiting items are not counted');
    await clock.advance(100);
    q.add('later');
    assert.deepEqual(await drainReady(q), ['ready@0', 'delayed@0', 'later@0']);
  });

  it('orders promoted items by when they became ready, not by when they were first added', async () => {
    const { clock, q } = setup();
    q.addAfter('first-added', 200);
    q.addAfter('second-added', 100);
    await clock.advance(200);
    assert.deepEqual(await drainReady(q), ['second-added@0', 'first-added@0']);
  });

  it('keeps the earliest ready time for a waiting key and arms one timer for the earliest item', async () => {
    const { clock, q } = setup();
    for (let i = 0; i < 500; i++) q.addAfter(`k${i}`, 1000 + i);
    q.addAfter('a', 500);
    q.addAfter('a', 300);
    q.addAfter('a', 900);
    assert.equal(clock.pendingTimers(), 1);
    assert.equal(clock.nextTimerAt(), clock.now() + 300);
    await clock.advance(300);
    assert.equal(q.len(), 1);
    assert.equal(clock.pendingTimers(), 1);
    assert.equal(clock.nextTimerAt(), clock.now() + 700);
    await clock.advance(700 + 499);
    assert.equal(q.len(), 501);
    assert.equal(clock.pendingTimers(), 0);
  });

  it('makes a waiting key ready at once when it is added without a delay, and ignores a delay for a ready key', async () => {
    const { clock, q } = setup();
    q.addAfter('a', 1000);
    q.add('a');
    assert.equal(q.len(), 1);
    assert.equal(clock.pendingTimers(), 0, 'nothing waits any more');
    q.add('b');
    q.addAfter('b', 1000);
    assert.equal(q.len(), 2);
    assert.equal(clock.pendingTimers(), 0);
  });

  it('raises the priority of a waiting key, which it keeps when promoted', async () => {
    const { clock, q } = setup();
    q.addAfter('a', 100);
    q.addWithOpts({ after: 200, priority: 7 }, 'a');
    q.add('b');
    await clock.advance(100);
    assert.deepEqual(await drainReady(q), ['a@7', 'b@0']);
  });

  it('uses the shorter of the rate limiter delay and the requested delay', async () => {
    const clock = new FakeClock();
    const q = new PriorityQueue<string>({
      clock,
      rateLimiter: itemExponentialFailureRateLimiter({ baseDelayMs: 50, maxDelayMs: 10_000 }),
    });
    q.addWithOpts({ rateLimited: true, after: 1000 }, 'a');
    assert.equal(clock.nextTimerAt(), clock.now() + 50);
    q.addWithOpts({ rateLimited: true, after: 20 }, 'b');
    assert.equal(clock.nextTimerAt(), clock.now() + 20);
    assert.equal(q.numRequeues('a'), 1);
    q.forget('a');
    assert.equal(q.numRequeues('a'), 0);
  });

  it('backs off rate-limited adds with the 5 ms → 1000 s default limiter', async () => {
    const { clock, q } = setup();
    const delays = await rateLimitedDelays({ queue: q, clock, item: 'a', times: 4 });
    assert.deepEqual(delays, [5, 10, 20, 40]);
  });

  it('parks a key re-added while it is processing until done(), and then hands it out once', async () => {
    const { q } = setup();
    q.add('a');
    q.add('b');
    const a = await q.getWithPriority();
    assert.equal(a.item, 'a');
    q.addWithOpts({ priority: 3 }, 'a');
    q.add('a');
    assert.equal(q.len(), 2, 'the parked re-add counts as ready');
    const b = await q.getWithPriority();
    assert.equal(b.item, 'b', 'the parked key is skipped although its priority is higher');
    let next: string | undefined;
    void q.get().then((r) => (next = r.item));
    await settle();
    assert.equal(next, undefined);
    q.done('a');
    await settle();
    assert.equal(next, 'a');
    q.done('a');
    q.done('b');
    assert.equal(q.len(), 0);
  });

  it('never hands one key to two of many concurrent workers, and processes every add', async () => {
    const rand = prng(7);
    const clock = new FakeClock();
    const q = new PriorityQueue<string>({ clock });
    const active = new Set<string>();
    const lastAdd = new Map<string, number>();
    const lastStart = new Map<string, number>();
    let tick = 0;
    const worker = async (): Promise<void> => {
      for (;;) {
        const r = await q.getWithPriority();
        if (r.shutdown) return;
        assert.ok(!active.has(r.item), `key ${r.item} handed to two workers`);
        active.add(r.item);
        lastStart.set(r.item, ++tick);
        const spins = Math.floor(rand() * 5);
        for (let i = 0; i < spins; i++) await Promise.resolve();
        active.delete(r.item);
        q.done(r.item);
      }
    };
    const workers = Array.from({ length: 12 }, worker);
    for (let round = 0; round < 300; round++) {
      for (let i = 0; i < 10; i++) {
        const key = `k${Math.floor(rand() * 150)}`;
        lastAdd.set(key, ++tick);
        const roll = rand();
        if (roll < 0.2) q.addWithOpts({ after: 1 + Math.floor(rand() * 5), priority: Math.floor(rand() * 3) }, key);
        else q.addWithOpts({ priority: Math.floor(rand() * 3) - 1 }, key);
      }
      await clock.advance(1);
    }
    await clock.advance(10);
    while (q.len() > 0 || active.size > 0) await Promise.resolve();
    await q.shutDownWithDrain();
    await Promise.all(workers);
    for (const [key, added] of lastAdd) {
      assert.ok((lastStart.get(key) ?? 0) > added, `the last add of ${key} was never processed`);
    }
  });

  it('wakes waiting callers one per item in the order they waited', async () => {
    const { q } = setup();
    const got: string[] = [];
    const waiting = [0, 1].map((i) => q.get().then((r) => got.push(`${i}:${r.item}`)));
    q.addWithOpts({ priority: 1 }, 'x', 'y');
    await Promise.all(waiting);
    assert.deepEqual(got, ['0:x', '1:y']);
  });

  it('reports shutdown to waiting and later callers at once, even with items queued', async () => {
    const { q } = setup();
    const waiting = q.get();
    q.shutDown();
    assert.deepEqual(await waiting, { item: undefined, shutdown: true });
    q.shutDown();
    const { clock, q: q2 } = setup();
    q2.add('a');
    q2.addAfter('b', 10);
    q2.shutDown();
    assert.deepEqual(await q2.getWithPriority(), { item: undefined, priority: 0, shutdown: true });
    q2.add('c');
    assert.equal(q2.len(), 1, 'adds after shutdown are dropped');
    assert.equal(clock.pendingTimers(), 0);
  });

  it('waits for in-flight items on shutDownWithDrain()', async () => {
    const { q } = setup();
    q.add('a');
    q.add('b');
    const a = await q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    await settle();
    assert.equal(drained, false);
    q.done(a.item!);
    await drain;
    assert.equal(q.shuttingDown(), true);
  });

  it('rejects done() for a key that is not being processed, and bad options', () => {
    const { q } = setup();
    q.add('a');
    assert.throws(() => q.done('a'), /not being processed/);
    assert.throws(() => q.addWithOpts({ after: Number.NaN }, 'a'), InvalidOptionError);
    assert.throws(() => q.addWithOpts({ priority: Number.POSITIVE_INFINITY }, 'a'), InvalidOptionError);
  });

  it('reports depth by priority, adds, retries for delayed adds only, and queue latency', async () => {
    const clock = new FakeClock();
    const { provider, m } = recordingProvider({ withPriority: true });
    const q = new PriorityQueue<string>({ clock, name: 'pq', metricsProvider: provider });
    q.add('a');
    q.addWithOpts({ priority: 2 }, 'b');
    q.addAfter('c', 100);
    q.addAfter('d', 0);
    assert.deepEqual(Object.fromEntries(m.depthByPriority), { 0: 2, 2: 1 });
    assert.equal(m.depth, 0, 'the plain gauge is unused when the provider labels by priority');
    assert.equal(m.adds, 3, 'waiting items are counted when they become ready');
    assert.equal(m.retries, 1, 'only adds with a delay count as retries');
    q.addWithOpts({ priority: 5 }, 'a');
    assert.deepEqual(Object.fromEntries(m.depthByPriority), { 0: 1, 2: 1, 5: 1 }, 'a raise moves the depth');
    await clock.advance(100);
    assert.equal(m.adds, 4);
    assert.deepEqual(Object.fromEntries(m.depthByPriority), { 0: 2, 2: 1, 5: 1 });
    const r = await q.getWithPriority();
    assert.equal(r.item, 'a');
    assert.deepEqual(m.latency, [0.1]);
    assert.deepEqual(Object.fromEntries(m.depthByPriority), { 0: 2, 2: 1, 5: 0 });
    await clock.advance(400);
    q.done('a');
    assert.deepEqual(m.workDuration, [0.4]);
    q.shutDown();
  });

  it('takes what it never hands out off the depth at shutdown, so a queue started again under its name counts only its own', async () => {
    const clock = new FakeClock();
    const { provider, m } = recordingProvider({ withPriority: true });
    const q = new PriorityQueue<string>({ clock, name: 'pq', metricsProvider: provider });
    q.addWithOpts({ priority: 2 }, 'a', 'b');
    q.add('c');
    q.addAfter('d', 100);
    assert.equal((await q.get()).item, 'a');
    q.addWithOpts({ priority: 2 }, 'a'); // parked behind its own processing
    assert.deepEqual(Object.fromEntries(m.depthByPriority), { 0: 1, 2: 2 });
    q.shutDown();
    assert.deepEqual(Object.fromEntries(m.depthByPriority), { 0: 0, 2: 0 }, 'ready and parked items leave; the delayed one never counted');
    assert.equal(q.len(), 3, 'len still reports what was queued');
    q.done('a');
    assert.deepEqual(Object.fromEntries(m.depthByPriority), { 0: 0, 2: 0 });
    const again = new PriorityQueue<string>({ clock, name: 'pq', metricsProvider: provider });
    again.add('c');
    assert.deepEqual(Object.fromEntries(m.depthByPriority), { 0: 1, 2: 0 });
    again.shutDown();
  });

  it('moves the plain depth gauge when the provider has no priority label', () => {
    const clock = new FakeClock();
    const { provider, m } = recordingProvider();
    const q = new PriorityQueue<string>({ clock, name: 'pq', metricsProvider: provider });
    q.addWithOpts({ priority: 3 }, 'a', 'b');
    assert.equal(m.depth, 2);
    q.shutDown();
  });
  it('hands out thousands of random prioritised adds in the order of a reference model', async () => {
    const rand = prng(11);
    const { q } = setup();
    const model = new Map<string, { priority: number; counter: number }>();
    let counter = 0;
    for (let i = 0; i < 3000; i++) {
      const key = `k${Math.floor(rand() * 700)}`;
      const priority = Math.floor(rand() * 7) - 3;
      q.addWithOpts({ priority }, key);
      const prev = model.get(key);
      if (!prev) model.set(key, { priority, counter: counter++ });
      else if (priority > prev.priority) Object.assign(prev, { priority, counter: counter++ });
    }
    const expected = [...model]
      .sort(([, a], [, b]) => b.priority - a.priority || a.counter - b.counter)
      .map(([k, v]) => `${k}@${v.priority}`);
    assert.deepEqual(await drainReady(q), expected);
  });
});
