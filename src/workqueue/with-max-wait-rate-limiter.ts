/**
 * WithMaxWaitRateLimiter: caps another limiter's delay at `maxDelayMs`. Invariant: the wrapped
 * limiter still records every attempt; only the returned delay is capped.
 */
import { requireDuration } from '../meta/internal.js';
import type { RateLimiter } from './rate-limiter.js';

/** Options of a `WithMaxWaitRateLimiter`: the limiter it wraps and the longest delay it allows. */
export interface WithMaxWaitRateLimiterOptions<T> {
  limiter: RateLimiter<T>;
  maxDelayMs: number;
}

/** Caps the delay of another rate limiter at a maximum. */
export class WithMaxWaitRateLimiter<T> implements RateLimiter<T> {
  readonly #limiter: RateLimiter<T>;
  readonly #maxDelayMs: number;

  constructor(options: WithMaxWaitRateLimiterOptions<T>) {
    requireDuration('maxDelayMs', options.maxDelayMs);
    this.#limiter = options.limiter;
    this.#maxDelayMs = options.maxDelayMs;
  }

  when(item: T): number {
    return Math.min(this.#limiter.when(item), this.#maxDelayMs);
  }

  forget(item: T): void {
    this.#limiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.#limiter.numRequeues(item);
  }
}

/** `limiter`'s delay, never more than `maxDelayMs`. */
export function withMaxWaitRateLimiter<T>(options: WithMaxWaitRateLimiterOptions<T>): RateLimiter<T> {
  return new WithMaxWaitRateLimiter(options);
}
