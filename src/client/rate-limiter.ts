/**
 * Client-side token bucket (client-go's `flowcontrol.NewTokenBucketRateLimiter`): `burst` requests
 * may go at once, then `qps` per second. Waiters reserve a token up front (the balance may go
 * negative), so they are served in arrival order and each waits exactly until its own token is
 * minted. Invariant: over any window of `t` seconds at most `burst + qps·t` requests pass. A waiter
 * whose signal aborts gives its reservation back.
 */
import type { Clock } from '../meta/index.js';

/** Paces the client's requests: each request waits for `acquire` before it is sent. */
export interface RateLimiter {
  /** Resolves when the request may go; rejects with the signal's reason if it aborts first. */
  acquire(options?: { signal?: AbortSignal | undefined }): Promise<void>;
}

/** Options of a `TokenBucketRateLimiter`: the steady rate, the burst, and the clock that times both. */
export interface TokenBucketOptions {
  qps: number;
  burst: number;
  clock: Clock;
}

/** Lets everything through: what `qps: -1` (or `Infinity`) selects. */
const unlimited: RateLimiter = Object.freeze({ acquire: () => Promise.resolve() });

/** A token bucket that lets `burst` requests go at once and then `qps` per second, in arrival order. */
export class TokenBucketRateLimiter implements RateLimiter {
  readonly #qps: number;
  readonly #burst: number;
  readonly #clock: Clock;
  #tokens: number;
  #lastMs: number;

  constructor({ qps, burst, clock }: TokenBucketOptions) {
    this.#qps = qps;
    this.#burst = Math.max(1, burst);
    this.#clock = clock;
    this.#tokens = this.#burst;
    this.#lastMs = clock.now();
  }

  acquire(options?: { signal?: AbortSignal | undefined }): Promise<void> {
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = this.#clock.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#lastMs) * this.#qps) / 1000);
    this.#lastMs = now;
    this.#tokens -= 1;
    if (this.#tokens >= 0) return Promise.resolve();
    const waitMs = Math.ceil((-this.#tokens * 1000) / this.#qps);
    return this.#clock.sleep(waitMs, { signal }).catch((err: unknown) => {
      this.#tokens += 1;
      throw err;
    });
  }
}

/** The limiter for a qps/burst pair; a negative or infinite qps disables limiting. */
export function createRateLimiter({ qps, burst, clock }: TokenBucketOptions): RateLimiter {
  if (qps < 0 || qps === Infinity) return unlimited;
  return new TokenBucketRateLimiter({ qps, burst, clock });
}
