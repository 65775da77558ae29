// PriorityQueue aging with a FakeClock: a ready item gains one level of priority per
// agingIntervalMs waited, so under a sustained 2x overload of more urgent adds a low-priority item
// is still handed out within the documented bound, where the strict order starves it for good.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, InvalidOptionError, type Clock, type Timer } from 'kube-converge/meta';
import { PriorityQueue } from 'kube-converge/workqueue';

/** controller-runtime's LowPriority, the priority of initial-list and resync events. */
const LOW = -100;

/**
 * A fake clock moved by hand, synchronously: the overload below sets no timer (every add is
 * immediate), and 60,000 asynchronous `FakeClock.advance` steps would take most of a minute.
 */
class SteppedClock implements Clock {
  t = 0;
  now(): number {
    return this.t;
  }
  monotonicMs(): number {
    return this.t;
  }
  setTimer(_fn: () => void, ms: number): Timer {
    throw new Error(`the overload sets no timer, but one was asked for in ${ms} ms`);
  }
  sleep(ms: number): Promise<void> {
    return Promise.reject(new Error(`the overload never sleeps, but a sleep of ${ms} ms was asked for`));
  }
}

/**
 * One worker takes an item every `serviceMs` while `hot` keys are re-added at priority 0, two per
 * service slot (twice what the worker can take), and `low` keys wait from the start at LOW. Runs for
 * `horizonMs` of fake time; returns how long each low key waited until it was handed out.
 */
async function overload(o: { agingIntervalMs: number; hot: number; low: number; serviceMs: number; horizonMs: number }) {
  const clock = new SteppedClock();
  const q = new PriorityQueue<string>({ clock, agingIntervalMs: o.agingIntervalMs });
  for (let i = 0; i < o.low; i++) q.addWithOpts({ priority: LOW }, `low-${i}`);
  const waited = new Map<string, number>();
  let maxLen = 0;
  let next = 0;
  for (let t = 0; t < o.horizonMs; t += o.serviceMs) {
    for (let i = 0; i < 2; i++) q.add(`hot-${next++ % o.hot}`);
    maxLen = Math.max(maxLen, q.len());
    const r = await q.getWithPriority();
    assert.equal(r.shutdown, false);
    if (r.item.startsWith('low-')) waited.set(r.item, clock.now());
    clock.t += o.serviceMs;
    q.done(r.item);
  }
  q.shutDown();
  return { waited, maxLen };
}

describe('PriorityQueue aging', () => {
  it('hands a low-priority item out ahead of a fresh add once it waited (gap × agingIntervalMs), and not a millisecond before', async () => {
    for (const [waitMs, first] of [
      [999, 'fresh'],
      [1000, 'old'],
    ] as const) {
      const clock = new FakeClock(0);
      const q = new PriorityQueue<string>({ clock, agingIntervalMs: 100 });
      q.addWithOpts({ priority: -10 }, 'old');
      await clock.advance(waitMs);
      q.add('fresh');
      assert.equal((await q.getWithPriority()).item, first, `after ${waitMs} ms`);
    }
  });

  it('keeps FIFO within a priority and the strict order between items that became ready at the same time', async () => {
    const clock = new FakeClock(0);
    const q = new PriorityQueue<string>({ clock });
    q.addWithOpts({ priority: LOW }, 'low');
    q.add('a');
    await clock.advance(1000);
    q.add('b');
    q.addWithOpts({ priority: 10 }, 'urgent');
    const order: string[] = [];
    while (q.len() > 0) order.push((await q.getWithPriority()).item!);
    assert.deepEqual(order, ['urgent', 'a', 'b', 'low']);
  });

  it('serves every low-priority item under a 2x overload of priority-0 adds within Q/w + 2·100·agingIntervalMs (≤ 5 min), where the strict order starves them', async (t) => {
    const settings = { hot: 200, low: 50, serviceMs: 10, horizonMs: 5 * 60_000 };
    const aged = await overload({ ...settings, agingIntervalMs: 600 });
    // The documented bound: at most Q queued items (Q/w to serve them), plus the adds that outrank
    // the item, those arriving within (0 − LOW)·I of it, at r = 2 times the service rate.
    const boundMs = aged.maxLen * settings.serviceMs + 2 * (0 - LOW) * 600;
    assert.ok(boundMs <= 5 * 60_000, `the bound ${boundMs} ms is within 5 minutes`);
    assert.equal(aged.waited.size, settings.low, `served ${aged.waited.size} of ${settings.low} low-priority items`);
    const worst = Math.max(...aged.waited.values());
    assert.ok(worst <= boundMs, `the longest wait ${worst} ms is within the bound ${boundMs} ms`);
    t.diagnostic(`longest low-priority wait ${worst} ms; bound ${boundMs} ms (queue held at most ${aged.maxLen})`);

    const strict = await overload({ ...settings, agingIntervalMs: Infinity });
    assert.equal(strict.waited.size, 0, 'without aging no low-priority item is served while the overload lasts');
  });

  it('refuses an aging interval that is not positive', () => {
    assert.throws(() => new PriorityQueue({ agingIntervalMs: 0 }), InvalidOptionError);
    assert.throws(() => new PriorityQueue({ agingIntervalMs: Number.NaN }), InvalidOptionError);
  });
});
