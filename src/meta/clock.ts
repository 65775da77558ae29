/**
 * Clock: the one source of time for everything that waits (delays, backoff, resync, leases, timeouts).
 *
 * `realClock` uses the process clock; `FakeClock` only moves when a test calls `advance()`/`set()`, and
 * then fires due timers strictly in (due time, creation order) order, each seeing `now()` equal to its
 * own due time. Invariant: a fake timer never fires before its due time and never fires twice.
 * Both clamp every delay to [0, MAX_TIMER_MS], Node's timer limit, so a delay built from client
 * input or config (a watch's `timeoutSeconds`, a lease duration) can never overflow into "now".
 */

/** A scheduled callback; `cancel()` is idempotent and safe after it fired. */
export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the Unix epoch: for timestamps that others read (a Lease's renewTime, an Event). */
  now(): number;
  /**
   * Milliseconds on a clock that only moves forward, at a steady rate, whatever happens to the wall
   * clock (NTP steps, a user setting the date). Only differences between two readings mean anything:
   * measure every elapsed time that decides something (a lease's validity, a renew deadline) on it.
   */
  monotonicMs(): number;
  /** Calls `fn` once after `ms` milliseconds (clamped to [0, MAX_TIMER_MS]; NaN is 0). */
  setTimer(fn: () => void, ms: number): Timer;
  /** Resolves after `ms`; rejects with the signal's reason if it aborts first (and frees the timer). */
  sleep(ms: number, options?: { signal?: AbortSignal | undefined }): Promise<void>;
}

/**
 * The longest delay Node's timers take (2^31-1 ms, about 24.8 days); a longer one fires at once with a
 * TimeoutOverflowWarning, so both clocks wait this long instead.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay as both clocks use it: within [0, MAX_TIMER_MS], NaN as 0. */
function clampTimerMs(ms: number): number {
  return Number.isNaN(ms) ? 0 : Math.min(Math.max(0, ms), MAX_TIMER_MS);
}

function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      timer.cancel();
      reject(signal!.reason);
    };
    const timer = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The process clock. Its timers keep the process alive like any `setTimeout`: an awaited delay must
 * not let the process exit under the caller; whoever owns a timer cancels it on stop.
 */
export const realClock: Clock = Object.freeze({
  now: () => Date.now(),
  monotonicMs: () => performance.now(),
  setTimer(fn: () => void, ms: number): Timer {
    const t = setTimeout(fn, clampTimerMs(ms));
    return { cancel: () => clearTimeout(t) };
  },
  sleep(ms: number, options?: { signal?: AbortSignal | undefined }): Promise<void> {
    return sleepOn(realClock, ms, options?.signal);
  },
});

interface FakeTimer {
  due: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** Lets queued promise callbacks run, so async work woken by a timer settles before the next one fires. */
async function flushMicrotasks(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

/**
 * A deterministic clock for tests. Time starts at `startMs` (default 2026-01-01T00:00:00Z) and moves
 * only through `advance(ms)` or `set(ms)`, which fire due timers in order and let promise callbacks
 * settle between them.
 */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: FakeTimer[] = [];

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  /** Fake time is one steady clock: it moves only when the test moves it. */
  monotonicMs(): number {
    return this.#now;
  }

  setTimer(fn: () => void, ms: number): Timer {
    const t: FakeTimer = { due: this.#now + clampTimerMs(ms), seq: this.#seq++, fn, cancelled: false };
    this.#timers.push(t);
    return {
      cancel: () => {
        t.cancelled = true;
        this.#timers = this.#timers.filter((x) => x !== t);
      },
    };
  }

  sleep(ms: number, options?: { signal?: AbortSignal | undefined }): Promise<void> {
    return sleepOn(this, ms, options?.signal);
  }

  /** Number of timers not yet fired or cancelled. */
  pendingTimers(): number {
    return this.#timers.length;
  }

  /** Due time of the earliest pending timer, or undefined. */
  nextTimerAt(): number | undefined {
    return this.#next()?.due;
  }

  /** Moves time forward by `ms`, firing every timer due on the way in order. */
  async advance(ms: number): Promise<void> {
    await this.set(this.#now + ms);
  }

  /** Moves time to `targetMs` (never backwards), firing due timers in order. */
  async set(targetMs: number): Promise<void> {
    if (targetMs < this.#now) throw new RangeError(`FakeClock cannot go back from ${this.#now} to ${targetMs}`);
    await flushMicrotasks();
    for (;;) {
      const t = this.#next();
      if (!t || t.due > targetMs) break;
      this.#timers = this.#timers.filter((x) => x !== t);
      this.#now = t.due;
      t.fn();
      await flushMicrotasks();
    }
    this.#now = targetMs;
    await flushMicrotasks();
  }

  /** Fires timers until none is pending, or `maxSteps` timers fired (guards against self-rescheduling loops). */
  async runAll(maxSteps = 10_000): Promise<void> {
    for (let i = 0; i < maxSteps; i++) {
      const t = this.#next();
      if (!t) return;
      await this.set(Math.max(t.due, this.#now));
    }
    throw new Error(`FakeClock.runAll: still ${this.#timers.length} timers after ${maxSteps} steps`);
  }

  #next(): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const t of this.#timers) {
      if (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    }
    return best;
  }
}
