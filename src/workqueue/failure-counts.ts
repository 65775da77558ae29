/**
 * FailureCounts: how many times each item has failed since it was last forgotten, the state that the
 * per-item rate limiters (`ItemExponentialFailureRateLimiter`, `ItemFastSlowRateLimiter`) keep and
 * turn into a delay in their own way. Invariant: a count only grows through `record` and only goes
 * back to zero through `forget`; a forgotten item holds no memory.
 */
import { defaultKeyOf } from './key.js';
import type { KeyOf } from './key.js';

export class FailureCounts<T> {
  readonly #counts = new Map<string, number>();
  readonly #keyOf: KeyOf<T>;

  constructor(options: { keyOf?: KeyOf<T> | undefined }) {
    this.#keyOf = options.keyOf ?? (defaultKeyOf as KeyOf<T>);
  }

  /** Records one more failure of `item` and returns its count, this failure included. */
  record(item: T): number {
    const key = this.#keyOf(item);
    const n = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, n);
    return n;
  }

  forget(item: T): void {
    this.#counts.delete(this.#keyOf(item));
  }

  count(item: T): number {
    return this.#counts.get(this.#keyOf(item)) ?? 0;
  }
}
