/**
 * RateLimiter: decides how long an item waits before it is retried. client-go's `RateLimiter`
 * with durations in milliseconds. Invariant: `when` records an attempt (it has side effects), so
 * call it once per retry; `forget` clears the item's history.
 */
export interface RateLimiter<T> {
  /** Records a failure of `item` and returns how many milliseconds to wait before retrying it. */
  when(item: T): number;
  /** Clears `item`'s failure history (call it when the item succeeded). */
  forget(item: T): void;
  /** Failures recorded for `item` since it was last forgotten. */
  numRequeues(item: T): number;
}

/** Options of the per-item limiters. */
export interface ItemRateLimiterOptions<T> {
  /** How items are compared. Default: `defaultKeyOf`. */
  keyOf?: ((item: T) => string) | undefined;
}
