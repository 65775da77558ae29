/**
 * BucketRateLimiter: one token bucket shared by all items (`golang.org/x/time/rate` as client-go
 * uses it: `Reserve().Delay()`). The bucket starts full with `burst` tokens and refills at `qps`
 * tokens per second of the injected clock. Every `when` takes a token, going into debt when the
 * bucket is empty, and returns how long until that token exists. Invariant: over any window, at
 * most `burst + qps · seconds` items get a zero delay; the limiter keeps no per-item state.
 */
import { InvalidOptionError, realClock } from '../meta/index.js';
import { requireInt } from '../meta/internal.js';
import type { Clock } from '../meta/index.js';
import type { RateLimiter } from './rate-limiter.js';

/** Options of a `BucketRateLimiter`: its rate, its burst, and the clock it refills on. */
export interface BucketRateLimiterOptions {
  /** Tokens added per second. */
  qps: number;
  /** Bucket size: how many items may pass at once. */
  burst: number;
  /** Default: `realClock`. */
  clock?: Clock | undefined;
}

/** One token bucket shared by all items: the overall retry rate of a queue. */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  readonly #qps: number;
  readonly #burst: number;
  readonly #clock: Clock;
  /** May go negative: reservations made ahead of the refill. */
  #tokens: number;
  #last: number;

  constructor(options: BucketRateLimiterOptions) {
    if (!(options.qps > 0) || !Number.isFinite(options.qps))
      throw new InvalidOptionError('qps', `must be a finite number > 0, got ${options.qps}`);
    requireInt('burst', options.burst, { min: 1 });
    this.#qps = options.qps;
    this.#burst = options.burst;
    this.#clock = options.clock ?? realClock;
    this.#tokens = options.burst;
    this.#last = this.#clock.now();
  }

  when(_item: T): number {
    const now = this.#clock.now();
    if (now > this.#last) {
      this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) / 1000) * this.#qps);
      this.#last = now;
    }
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : (-this.#tokens / this.#qps) * 1000;
  }

  forget(_item: T): void {
    // The bucket is shared by all items; there is no per-item history to clear.
  }

  numRequeues(_item: T): number {
    return 0;
  }
}

/** A token bucket of `burst` tokens refilled at `qps` per second, shared by all items. */
export function bucketRateLimiter<T>(options: BucketRateLimiterOptions): RateLimiter<T> {
  return new BucketRateLimiter(options);
}
