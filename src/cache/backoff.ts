/**
 * Backoff: the reflector's delay between failed attempts, client-go's `DelayWithReset` over
 * `wait.Backoff{Duration: 800ms, Factor: 2, Jitter: 1.0, Cap: 30s}` with a 2-minute reset.
 *
 * Each `next()` returns `base * (1 + jitter * random())` clamped to `capMs`, then doubles `base` up
 * to `capMs`. If more than `resetAfterMs` passed since the previous `next()` (the loop was healthy
 * that long), `base` starts again at `initialMs`. Invariant: every delay lies in
 * `[base, min(capMs, 2 * base)]` for the base it was drawn from; nothing here sleeps. `reset()`
 * starts the sequence over at once, for callers that know the failures they delay have ended.
 * (client-go lets the jitter push a capped delay up to 2 × cap; we keep the cap a hard limit.)
 */
import { type Clock } from '../meta/index.js';
import { requireDuration } from '../meta/internal.js';

/** How a `Backoff` grows its delays; every field but `clock` defaults to `BACKOFF_DEFAULTS`. */
export interface BackoffOptions {
  clock: Clock;
  /** First delay before jitter; default 800 ms. */
  initialMs?: number;
  /** Growth per attempt; default 2. */
  factor?: number;
  /** Fraction of the delay added at random (0..1 → up to +100 %); default 1.0. */
  jitter?: number;
  /** Largest delay, jitter included; default 30 s. */
  capMs?: number;
  /** A quiet period this long resets the delay to `initialMs`; default 2 min. */
  resetAfterMs?: number;
  /** Uniform [0, 1) source; default `Math.random`. */
  random?: () => number;
}

/** client-go's reflector backoff (800 ms doubling up to 30 s, up to +100 % jitter, reset after 2 min of quiet), frozen. */
export const BACKOFF_DEFAULTS = Object.freeze({ initialMs: 800, factor: 2, jitter: 1, capMs: 30_000, resetAfterMs: 120_000 });

export class Backoff {
  readonly #clock: Clock;
  readonly #initialMs: number;
  readonly #factor: number;
  readonly #jitter: number;
  readonly #capMs: number;
  readonly #resetAfterMs: number;
  readonly #random: () => number;
  #baseMs: number;
  #lastAtMs: number | undefined;

  constructor(o: BackoffOptions) {
    this.#clock = o.clock;
    this.#initialMs = o.initialMs ?? BACKOFF_DEFAULTS.initialMs;
    this.#factor = o.factor ?? BACKOFF_DEFAULTS.factor;
    this.#jitter = o.jitter ?? BACKOFF_DEFAULTS.jitter;
    this.#capMs = o.capMs ?? BACKOFF_DEFAULTS.capMs;
    this.#resetAfterMs = o.resetAfterMs ?? BACKOFF_DEFAULTS.resetAfterMs;
    this.#random = o.random ?? Math.random;
    requireDuration('backoff.initialMs', this.#initialMs);
    requireDuration('backoff.capMs', this.#capMs);
    requireDuration('backoff.resetAfterMs', this.#resetAfterMs);
    this.#baseMs = this.#initialMs;
  }

  /** The next `next()` returns a delay drawn from `initialMs` again. */
  reset(): void {
    this.#baseMs = this.#initialMs;
  }

  /** The next delay in ms; advances the sequence. */
  next(): number {
    const now = this.#clock.now();
    if (this.#lastAtMs !== undefined && now - this.#lastAtMs > this.#resetAfterMs) this.#baseMs = this.#initialMs;
    this.#lastAtMs = now;
    const base = this.#baseMs;
    this.#baseMs = Math.min(base * this.#factor, this.#capMs);
    return Math.min(this.#capMs, base * (1 + this.#jitter * this.#random()));
  }
}
