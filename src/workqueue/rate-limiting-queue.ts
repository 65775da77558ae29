/**
 * RateLimitingQueue: client-go's rate-limiting queue, a `DelayingQueue` whose retries are spaced by
 * a `RateLimiter`. Invariant: `addRateLimited(x)` is exactly `addAfter(x, limiter.when(x))`, so each
 * call counts one failure; only `forget` resets that count, and `forget` never calls `done`.
 */
import { DelayingQueue } from './delaying-queue.js';
import { defaultControllerRateLimiter } from './default-rate-limiters.js';
import type { RateLimitingInterface, RateLimitingQueueOptions } from './interfaces.js';
import type { RateLimiter } from './rate-limiter.js';

/**
 * client-go's `NewTypedRateLimitingQueueWithConfig`. The default limiter is
 * `defaultControllerRateLimiter()` on the queue's clock and key function.
 * Callers must `forget` an item once it succeeded, or its backoff keeps growing.
 */
export class RateLimitingQueue<T> extends DelayingQueue<T> implements RateLimitingInterface<T> {
  readonly #limiter: RateLimiter<T>;

  constructor(options: RateLimitingQueueOptions<T> = {}) {
    super(options);
    this.#limiter = options.rateLimiter ?? defaultControllerRateLimiter<T>({ clock: this.clock, keyOf: this.keyOf });
  }

  addRateLimited(item: T): void {
    this.addAfter(item, this.#limiter.when(item));
  }

  forget(item: T): void {
    this.#limiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.#limiter.numRequeues(item);
  }
}
