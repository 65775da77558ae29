// The RateLimitingInterface contract, run against every queue that claims it, so they cannot drift apart.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from 'kube-converge/meta';
import { itemExponentialFailureRateLimiter } from 'kube-converge/workqueue';
import type { RateLimiter, RateLimitingInterface } from 'kube-converge/workqueue';
import { rateLimitedDelays, settle } from './helpers.js';

export type MakeQueue = (o: { clock: FakeClock; rateLimiter: RateLimiter<string> }) => RateLimitingInterface<string>;

export function rateLimitingContract(name: string, make: MakeQueue): void {
  const setup = () => {
    const clock = new FakeClock();
    const q = make({ clock, rateLimiter: itemExponentialFailureRateLimiter({ baseDelayMs: 5, maxDelayMs: 1000 }) });
    return { clock, q };
  };

  describe(`${name} satisfies RateLimitingInterface`, () => {
    it('collapses repeated adds of a pending key into one', async () => {
      const { q } = setup();
      q.add('a');
      q.add('a');
      q.add('b');
      assert.equal(q.len(), 2);
      assert.equal((await q.get()).item, 'a');
    });

    it('processes a key re-added while processing exactly once more, after done', async () => {
      const { q } = setup();
      q.add('a');
      const a = await q.get();
      q.add('a');
      q.add('a');
      let again = false;
      void q.get().then(() => (again = true));
      await settle();
      assert.equal(again, false);
      q.done(a.item!);
      await settle();
      assert.equal(again, true);
      q.done('a');
      assert.equal(q.len(), 0);
    });

    it('adds a delayed item at the earliest requested time, with one clock timer', async () => {
      const { clock, q } = setup();
      q.addAfter('a', 300);
      q.addAfter('a', 100);
      q.addAfter('b', 200);
      assert.equal(clock.pendingTimers(), 1);
      await clock.advance(100);
      assert.equal(q.len(), 1);
      assert.equal((await q.get()).item, 'a');
      await clock.advance(100);
      assert.equal(q.len(), 1);
      await clock.advance(1000);
      assert.equal(q.len(), 1, 'the later request for a was merged away');
    });

    it('spaces rate-limited adds with the limiter and resets with forget, which does not end processing', async () => {
      const { clock, q } = setup();
      const delays = await rateLimitedDelays({ queue: q, clock, item: 'a', times: 3 });
      assert.deepEqual(delays, [5, 10, 20]);
      assert.equal(q.numRequeues('a'), 3);
      q.add('a');
      await q.get();
      q.forget('a');
      assert.equal(q.numRequeues('a'), 0);
      q.add('a');
      let handedOut = false;
      void q.get().then(() => (handedOut = true));
      await settle();
      assert.equal(handedOut, false, 'forget left a in flight');
      q.done('a');
      await settle();
      assert.equal(handedOut, true);
    });

    it('wakes every waiting get with shutdown and ignores adds afterwards', async () => {
      const { q } = setup();
      const waiting = [q.get(), q.get()];
      q.shutDown();
      q.add('late');
      for (const r of await Promise.all(waiting)) assert.equal(r.shutdown, true);
      assert.equal(q.shuttingDown(), true);
      assert.equal(q.len(), 0);
    });

    it('resolves shutDownWithDrain only once in-flight items are done', async () => {
      const { q } = setup();
      q.add('a');
      const a = await q.get();
      let drained = false;
      const drain = q.shutDownWithDrain().then(() => (drained = true));
      await settle();
      assert.equal(drained, false);
      q.done(a.item!);
      await drain;
    });
  });
}
