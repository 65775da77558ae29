// RateLimitingQueue, and withPriority adapting it to the priority interface controllers use.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from 'kube-converge/meta';
import { RateLimitingQueue, withPriority } from 'kube-converge/workqueue';
import { recordingProvider } from './helpers.js';

describe('RateLimitingQueue', () => {
  it('uses defaultControllerRateLimiter on the queue clock: 5 ms backoff, then the 10 qps bucket', async () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({ clock });
    for (let i = 0; i < 100; i++) q.addRateLimited(`k${i}`);
    assert.equal(clock.nextTimerAt(), clock.now() + 5, 'the burst of 100 passes with the per-item 5 ms');
    q.addRateLimited('k100');
    await clock.advance(5);
    assert.equal(q.len(), 100);
    await clock.advance(95);
    assert.equal(q.len(), 101, 'the 101st waited ~100 ms for a token');
  });

  it('counts a retry for every rate-limited add', () => {
    const clock = new FakeClock();
    const { provider, m } = recordingProvider();
    const q = new RateLimitingQueue<string>({ clock, name: 'rl', metricsProvider: provider });
    q.addRateLimited('a');
    q.addRateLimited('a');
    assert.equal(m.retries, 2);
    assert.equal(q.numRequeues('a'), 2);
    q.shutDown();
  });
});

describe('withPriority', () => {
  it('maps addWithOpts to addRateLimited, addAfter or add, and reports priority 0', async () => {
    const clock = new FakeClock();
    const q = withPriority(new RateLimitingQueue<string>({ clock }));
    q.addWithOpts({ priority: 9 }, 'now');
    q.addWithOpts({ after: 50 }, 'later');
    q.addWithOpts({ rateLimited: true, after: 1000 }, 'limited');
    assert.deepEqual(await q.getWithPriority(), { item: 'now', priority: 0, shutdown: false });
    await clock.advance(5);
    assert.equal(q.len(), 1, 'rate-limited wins over after');
    assert.equal(q.numRequeues('limited'), 1);
    await clock.advance(45);
    assert.equal(q.len(), 2);
    q.shutDown();
    assert.equal((await q.getWithPriority()).item, 'limited');
  });
});
