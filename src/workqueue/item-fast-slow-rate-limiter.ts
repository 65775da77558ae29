/**
 * ItemFastSlowRateLimiter: retries an item quickly a few times, then slowly. Returns `fastDelayMs`
 * while the item's failure count (including this one) is at most `maxFastAttempts`, then
 * `slowDelayMs`. Invariant: the count only grows through `when` and resets through `forget`.
 */
import { requireDuration, requireInt } from '../meta/internal.js';
import { FailureCounts } from './failure-counts.js';
import type { ItemRateLimiterOptions, RateLimiter } from './rate-limiter.js';

/** Options of an `ItemFastSlowRateLimiter`: the fast and slow delays and how many fast attempts come first. */
export interface ItemFastSlowRateLimiterOptions<T> extends ItemRateLimiterOptions<T> {
  fastDelayMs: number;
  slowDelayMs: number;
  maxFastAttempts: number;
}

/** Retries an item quickly a few times, then slowly. */
export class ItemFastSlowRateLimiter<T> implements RateLimiter<T> {
  readonly #failures: FailureCounts<T>;
  readonly #fastDelayMs: number;
  readonly #slowDelayMs: number;
  readonly #maxFastAttempts: number;

  constructor(options: ItemFastSlowRateLimiterOptions<T>) {
    requireDuration('fastDelayMs', options.fastDelayMs);
    requireDuration('slowDelayMs', options.slowDelayMs);
    requireInt('maxFastAttempts', options.maxFastAttempts);
    this.#fastDelayMs = options.fastDelayMs;
    this.#slowDelayMs = options.slowDelayMs;
    this.#maxFastAttempts = options.maxFastAttempts;
    this.#failures = new FailureCounts({ keyOf: options.keyOf });
  }

  when(item: T): number {
    const failures = this.#failures.record(item);
    return failures <= this.#maxFastAttempts ? this.#fastDelayMs : this.#slowDelayMs;
  }

  forget(item: T): void {
    this.#failures.forget(item);
  }

  numRequeues(item: T): number {
    return this.#failures.count(item);
  }
}

/** `fastDelayMs` for the first `maxFastAttempts` failures of an item, `slowDelayMs` after. */
export function itemFastSlowRateLimiter<T>(options: ItemFastSlowRateLimiterOptions<T>): RateLimiter<T> {
  return new ItemFastSlowRateLimiter(options);
}
