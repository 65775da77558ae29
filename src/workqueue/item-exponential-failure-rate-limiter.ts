/**
 * ItemExponentialFailureRateLimiter: per-item exponential backoff, `baseDelayMs · 2^failures`
 * capped at `maxDelayMs`. The first `when` returns the base delay. Invariant: an item's delay grows
 * only through `when` and goes back to the base only through `forget`.
 */
import { InvalidOptionError } from '../meta/index.js';
import { requireDuration } from '../meta/internal.js';
import { FailureCounts } from './failure-counts.js';
import type { ItemRateLimiterOptions, RateLimiter } from './rate-limiter.js';

/** Options of an `ItemExponentialFailureRateLimiter`: the base and the maximum delay. */
export interface ItemExponentialFailureRateLimiterOptions<T> extends ItemRateLimiterOptions<T> {
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Per-item exponential backoff: the base delay doubles with each failure, up to a maximum. */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  readonly #failures: FailureCounts<T>;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;

  constructor(options: ItemExponentialFailureRateLimiterOptions<T>) {
    requireDuration('baseDelayMs', options.baseDelayMs);
    requireDuration('maxDelayMs', options.maxDelayMs);
    if (options.maxDelayMs < options.baseDelayMs) throw new InvalidOptionError('maxDelayMs', 'must be >= baseDelayMs');
    this.#baseDelayMs = options.baseDelayMs;
    this.#maxDelayMs = options.maxDelayMs;
    this.#failures = new FailureCounts({ keyOf: options.keyOf });
  }

  when(item: T): number {
    // The first failure waits the base delay: the exponent is the count of earlier failures.
    const exp = this.#failures.record(item) - 1;
    // 2 ** exp becomes Infinity after ~1024 failures; the cap handles that like Go's overflow check.
    return Math.min(this.#baseDelayMs * 2 ** exp, this.#maxDelayMs);
  }

  forget(item: T): void {
    this.#failures.forget(item);
  }

  numRequeues(item: T): number {
    return this.#failures.count(item);
  }
}

/** `baseDelayMs · 2^failures` per item, capped at `maxDelayMs`. */
export function itemExponentialFailureRateLimiter<T>(options: ItemExponentialFailureRateLimiterOptions<T>): RateLimiter<T> {
  return new ItemExponentialFailureRateLimiter(options);
}
