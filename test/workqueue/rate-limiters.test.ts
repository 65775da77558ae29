// Imports the workqueue's private rate limiters: unit tests of each one.
// The rate limiters: per-item exponential and fast/slow backoff, the token bucket on a FakeClock, max-
// of and max-wait.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, InvalidOptionError } from 'kube-converge/meta';
import {
  bucketRateLimiter,
  defaultControllerRateLimiter,
  itemExponentialFailureRateLimiter,
  itemFastSlowRateLimiter,
  maxOfRateLimiter,
  withMaxWaitRateLimiter,
} from 'kube-converge/workqueue';
import type { RateLimiter } from 'kube-converge/workqueue';
import { BucketRateLimiter } from '../../src/workqueue/bucket-rate-limiter.js';
import { ItemExponentialFailureRateLimiter } from '../../src/workqueue/item-exponential-failure-rate-limiter.js';
import { MaxOfRateLimiter } from '../../src/workqueue/max-of-rate-limiter.js';

const whens = <T>(l: RateLimiter<T>, item: T, n: number): number[] => Array.from({ length: n }, () => l.when(item));

describe('ItemExponentialFailureRateLimiter', () => {
  it('backs off 5ms, 10ms, 20ms … per item and caps at the maximum', () => {
    const l = itemExponentialFailureRateLimiter<string>({ baseDelayMs: 5, maxDelayMs: 1000 });
    assert.deepEqual(whens(l, 'a', 10), [5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000]);
    assert.equal(l.numRequeues('a'), 10);
    assert.equal(l.when('b'), 5, 'each item has its own history');
  });

  it('starts over at the base delay after forget', () => {
    const l = itemExponentialFailureRateLimiter<string>({ baseDelayMs: 5, maxDelayMs: 1000 });
    whens(l, 'a', 4);
    l.forget('a');
    assert.equal(l.numRequeues('a'), 0);
    assert.deepEqual(whens(l, 'a', 3), [5, 10, 20]);
  });

  it('stays at the cap after thousands of failures instead of overflowing', () => {
    const l = itemExponentialFailureRateLimiter<string>({ baseDelayMs: 5, maxDelayMs: 1_000_000 });
    const all = whens(l, 'a', 3000);
    assert.equal(all.at(-1), 1_000_000);
    assert.ok(all.every((d) => Number.isFinite(d) && d <= 1_000_000));
  });

  it('compares reconcile requests by value', () => {
    const l = itemExponentialFailureRateLimiter<{ namespace: string; name: string }>({ baseDelayMs: 1, maxDelayMs: 100 });
    l.when({ namespace: 'n', name: 'a' });
    assert.equal(l.when({ namespace: 'n', name: 'a' }), 2);
  });

  it('rejects a maximum below the base', () => {
    assert.throws(() => new ItemExponentialFailureRateLimiter({ baseDelayMs: 10, maxDelayMs: 5 }), InvalidOptionError);
  });
});

describe('ItemFastSlowRateLimiter', () => {
  it('returns the fast delay for the first attempts, then the slow one, until forgotten', () => {
    const l = itemFastSlowRateLimiter<string>({ fastDelayMs: 5, slowDelayMs: 10_000, maxFastAttempts: 3 });
    assert.deepEqual(whens(l, 'a', 5), [5, 5, 5, 10_000, 10_000]);
    assert.equal(l.numRequeues('a'), 5);
    l.forget('a');
    assert.equal(l.when('a'), 5);
  });
});

describe('BucketRateLimiter', () => {
  it('lets a burst through, then spaces items at the steady rate of the clock', async () => {
    const clock = new FakeClock();
    const l = bucketRateLimiter<string>({ qps: 10, burst: 3, clock });
    assert.deepEqual(whens(l, 'x', 3), [0, 0, 0]);
    assert.deepEqual(
      whens(l, 'x', 3).map((d) => Math.round(d)),
      [100, 200, 300],
      'each further token is a reservation in the future',
    );
    await clock.advance(300);
    assert.equal(Math.round(l.when('x')), 100, 'the debt was paid by 300 ms of refill');
    await clock.advance(10_000);
    assert.deepEqual(
      whens(l, 'x', 4).map((d) => Math.round(d)),
      [0, 0, 0, 100],
      'refills up to the burst, not beyond',
    );
    assert.equal(l.numRequeues('x'), 0);
  });

  it('rejects a non-positive rate or burst', () => {
    assert.throws(() => new BucketRateLimiter({ qps: 0, burst: 1 }), InvalidOptionError);
    assert.throws(() => new BucketRateLimiter({ qps: 1, burst: 0 }), InvalidOptionError);
  });
});

describe('MaxOfRateLimiter', () => {
  it('returns the largest delay and records the attempt in every limiter', () => {
    const clock = new FakeClock();
    const exp = itemExponentialFailureRateLimiter<string>({ baseDelayMs: 1, maxDelayMs: 1000 });
    const fastSlow = itemFastSlowRateLimiter<string>({ fastDelayMs: 3, slowDelayMs: 50, maxFastAttempts: 2 });
    const l = maxOfRateLimiter(exp, fastSlow, bucketRateLimiter<string>({ qps: 1, burst: 100, clock }));
    assert.deepEqual(whens(l, 'a', 8), [3, 3, 50, 50, 50, 50, 64, 128]);
    assert.equal(exp.numRequeues('a'), 8);
    assert.equal(fastSlow.numRequeues('a'), 8);
    assert.equal(l.numRequeues('a'), 8);
    l.forget('a');
    assert.equal(exp.numRequeues('a'), 0);
    assert.equal(fastSlow.numRequeues('a'), 0);
  });

  it('needs at least one limiter', () => {
    assert.throws(() => new MaxOfRateLimiter<string>({ limiters: [] }), InvalidOptionError);
  });
});

describe('WithMaxWaitRateLimiter', () => {
  it('caps the wrapped delay while the wrapped limiter keeps counting', () => {
    const inner = itemExponentialFailureRateLimiter<string>({ baseDelayMs: 100, maxDelayMs: 100_000 });
    const l = withMaxWaitRateLimiter({ limiter: inner, maxDelayMs: 350 });
    assert.deepEqual(whens(l, 'a', 4), [100, 200, 350, 350]);
    assert.equal(l.numRequeues('a'), 4);
    l.forget('a');
    assert.equal(inner.numRequeues('a'), 0);
  });
});

describe('defaultControllerRateLimiter', () => {
  it('is the max of 5ms→1000s per-item backoff and a 10 qps / burst 100 bucket', () => {
    const clock = new FakeClock();
    const l = defaultControllerRateLimiter<string>({ clock });
    assert.deepEqual(whens(l, 'a', 3), [5, 10, 20]);
    const many = whens(l, 'a', 30);
    assert.equal(many.at(-1), 1_000_000, 'capped at 1000 s');
    // 33 tokens spent on 'a'; 67 more distinct items drain the burst of 100.
    for (let i = 0; i < 67; i++) assert.equal(l.when(`k${i}`), 5);
    assert.equal(Math.round(l.when('fresh')), 100, 'the 101st attempt waits for a token at 10 per second');
    assert.equal(Math.round(l.when('fresh2')), 200);
  });
});
