/**
 * The default rate limiters, with client-go's and controller-runtime's exact parameters.
 * Invariant: these are the only place the defaults are written down.
 */
import type { Clock } from '../meta/index.js';
import { BucketRateLimiter } from './bucket-rate-limiter.js';
import { ItemExponentialFailureRateLimiter } from './item-exponential-failure-rate-limiter.js';
import type { KeyOf } from './key.js';
import { MaxOfRateLimiter } from './max-of-rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';

/** Options of the default rate limiters: the clock they time on and how items are keyed. */
export interface DefaultRateLimiterOptions<T> {
  /** Clock of the token bucket. Default: `realClock`. */
  clock?: Clock | undefined;
  keyOf?: KeyOf<T> | undefined;
}

/**
 * client-go's `DefaultControllerRateLimiter`: the max of a per-item exponential backoff from 5 ms to
 * 1000 s and an overall token bucket of 10 qps with a burst of 100. The default of `RateLimitingQueue`.
 */
export function defaultControllerRateLimiter<T>(options: DefaultRateLimiterOptions<T> = {}): RateLimiter<T> {
  return new MaxOfRateLimiter<T>({
    limiters: [
      new ItemExponentialFailureRateLimiter<T>({ baseDelayMs: 5, maxDelayMs: 1_000_000, keyOf: options.keyOf }),
      new BucketRateLimiter<T>({ qps: 10, burst: 100, clock: options.clock }),
    ],
  });
}

/** client-go's `DefaultItemBasedRateLimiter`: per-item exponential backoff from 1 ms to 1000 s. */
export function defaultItemBasedRateLimiter<T>(options: Pick<DefaultRateLimiterOptions<T>, 'keyOf'> = {}): RateLimiter<T> {
  return new ItemExponentialFailureRateLimiter<T>({ baseDelayMs: 1, maxDelayMs: 1_000_000, keyOf: options.keyOf });
}

/**
 * controller-runtime's default when the priority queue is used: per-item exponential backoff from
 * 5 ms to 1000 s only, with no bucket. The default of `PriorityQueue`.
 */
export function defaultPriorityQueueRateLimiter<T>(options: Pick<DefaultRateLimiterOptions<T>, 'keyOf'> = {}): RateLimiter<T> {
  return new ItemExponentialFailureRateLimiter<T>({ baseDelayMs: 5, maxDelayMs: 1_000_000, keyOf: options.keyOf });
}
