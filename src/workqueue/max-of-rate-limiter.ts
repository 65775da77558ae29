/**
 * MaxOfRateLimiter: combines limiters by taking the longest delay. Invariant: every limiter's
 * `when` runs on every call (each records the attempt, e.g. the bucket spends a token even when
 * the per-item backoff dominates), and `forget` reaches all of them.
 */
import { InvalidOptionError } from '../meta/index.js';
import type { RateLimiter } from './rate-limiter.js';

/** Combines rate limiters by taking the longest of their delays. */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  readonly #limiters: readonly RateLimiter<T>[];

  constructor(options: { limiters: readonly RateLimiter<T>[] }) {
    if (options.limiters.length === 0) throw new InvalidOptionError('limiters', 'needs at least one rate limiter');
    this.#limiters = [...options.limiters];
  }

  when(item: T): number {
    let max = 0;
    for (const l of this.#limiters) max = Math.max(max, l.when(item));
    return max;
  }

  forget(item: T): void {
    for (const l of this.#limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    let max = 0;
    for (const l of this.#limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}

/** The longest delay of all `limiters`, each of which records every attempt. */
export function maxOfRateLimiter<T>(...limiters: RateLimiter<T>[]): RateLimiter<T> {
  return new MaxOfRateLimiter({ limiters });
}
