// DelayingQueue with a FakeClock: addAfter merging, one timer, ordering and shutdown.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, InvalidOptionError } from 'kube-converge/meta';
import type { Clock, Timer } from 'kube-converge/meta';
import { DelayingQueue } from 'kube-converge/workqueue';
import { prng, recordingProvider } from './helpers.js';

function setup() {
  const clock = new FakeClock();
  const q = new DelayingQueue<string>({ clock });
  return { clock, q };
}

describe('DelayingQueue', () => {
  it('adds an item only once its delay has passed', async () => {
    const { clock, q } = setup();
    q.addAfter('a', 100);
    assert.equal(q.len(), 0);
    await clock.advance(99);
    assert.equal(q.len(), 0);
    await clock.advance(1);
    assert.equal(q.len(), 1);
    assert.deepEqual(await q.get(), { item: 'a', shutdown: false });
  });

  it('adds at once when the delay is zero or negative', () => {
    const { q } = setup();
    q.addAfter('a', 0);
    q.addAfter('b', -5);
    assert.equal(q.len(), 2);
  });

  it('keeps the earliest ready time when a waiting item is added again', async () => {
    const { clock, q } = setup();
    q.addAfter('a', 500);
    q.addAfter('a', 100);
    q.addAfter('a', 300);
    assert.equal(q.waitingLen(), 1);
    await clock.advance(100);
    assert.equal(q.len(), 1, 'ready at the earliest requested time');
    assert.equal((await q.get()).item, 'a');
    q.done('a');
    await clock.advance(1000);
    assert.equal(q.len(), 0, 'the later requests were merged, not kept');
  });

  it('arms one clock timer for the earliest item, however many wait', async () => {
    const { clock, q } = setup();
    for (let i = 0; i < 1000; i++) q.addAfter(`k${i}`, 1000 - i);
    assert.equal(clock.pendingTimers(), 1);
    assert.equal(clock.nextTimerAt(), clock.now() + 1);
    await clock.advance(500);
    assert.equal(q.len(), 500);
    assert.equal(clock.pendingTimers(), 1);
    assert.equal(clock.nextTimerAt(), clock.now() + 1);
    await clock.advance(500);
    assert.equal(q.len(), 1000);
    assert.equal(clock.pendingTimers(), 0, 'no timer once nothing waits');
  });

  it('releases waiting items in ready-time order, and in request order for equal times', async () => {
    const { clock, q } = setup();
    q.addAfter('late', 30);
    q.addAfter('first', 10);
    q.addAfter('second', 10);
    q.addAfter('middle', 20);
    await clock.advance(30);
    const out = [];
    while (q.len() > 0) out.push((await q.get()).item);
    assert.deepEqual(out, ['first', 'second', 'middle', 'late']);
  });

  it('does not cancel a delayed add when the item is added plainly meanwhile', async () => {
    const { clock, q } = setup();
    q.addAfter('a', 100);
    q.add('a');
    const first = await q.get();
    assert.equal(first.item, 'a');
    q.done('a');
    await clock.advance(100);
    assert.equal(q.len(), 1, 'processed once now and once more when the delay passes');
  });

  it('drops waiting items and its timer on shutdown, and ignores later delayed adds', async () => {
    const { clock, q } = setup();
    q.addAfter('a', 100);
    q.shutDown();
    assert.equal(clock.pendingTimers(), 0);
    q.addAfter('b', 10);
    await clock.advance(1000);
    assert.deepEqual(await q.get(), { item: undefined, shutdown: true });
  });

  it('rejects a delay that is not a finite number', () => {
    const { q } = setup();
    assert.throws(() => q.addAfter('a', Number.NaN), InvalidOptionError);
    assert.throws(() => q.addAfter('a', Number.POSITIVE_INFINITY), InvalidOptionError);
  });

  it('counts a retry for every addAfter call, even an immediate one', () => {
    const clock = new FakeClock();
    const { provider, m } = recordingProvider();
    const q = new DelayingQueue<string>({ clock, name: 'd', metricsProvider: provider });
    q.addAfter('a', 0);
    q.addAfter('b', 10);
    q.addAfter('b', 20);
    assert.equal(m.retries, 3);
    assert.equal(m.adds, 1, 'waiting items are not added yet');
    q.shutDown();
  });
  it('releases thousands of random delayed adds in the order of a reference model', async () => {
    const rand = prng(3);
    const { clock, q } = setup();
    const model = new Map<string, { at: number; seq: number }>();
    let seq = 0;
    for (let i = 0; i < 3000; i++) {
      const key = `k${Math.floor(rand() * 800)}`;
      const delay = 1 + Math.floor(rand() * 500);
      q.addAfter(key, delay);
      const at = clock.now() + delay;
      const prev = model.get(key);
      if (!prev) model.set(key, { at, seq: seq++ });
      else if (at < prev.at) prev.at = at;
    }
    assert.equal(q.waitingLen(), model.size);
    const expected = [...model].sort(([, a], [, b]) => a.at - b.at || a.seq - b.seq).map(([k]) => k);
    const released: string[] = [];
    while (released.length < expected.length) {
      await clock.advance(1);
      while (q.len() > 0) released.push((await q.get()).item!);
    }
    assert.deepEqual(released, expected);
  });
  it('re-arms its timer when a clock fires it before the earliest item is due', () => {
    // Real timers may fire a little early; this clock lets the test fire the one timer by hand.
    let now = 0;
    const timers: { fn: () => void; ms: number }[] = [];
    const clock: Clock = {
      now: () => now,
      monotonicMs: () => now,
      setTimer: (fn: () => void, ms: number): Timer => (timers.push({ fn, ms }), { cancel: () => {} }),
      sleep: () => Promise.resolve(),
    };
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('a', 100);
    assert.deepEqual(
      timers.map((t) => t.ms),
      [100],
    );
    now = 99;
    timers[0]!.fn();
    assert.equal(q.len(), 0, 'not due yet');
    assert.deepEqual(
      timers.map((t) => t.ms),
      [100, 1],
      're-armed for the remaining millisecond',
    );
    now = 100;
    timers[1]!.fn();
    assert.equal(q.len(), 1);
  });
});
