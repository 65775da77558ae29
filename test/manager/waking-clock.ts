/**
 * A test clock for pauses: timers and sleeps run on a `FakeClock`, and `wake(ms)` moves `now()` ahead
 * without firing any of them — a process that was frozen (SIGSTOP, a long GC, a suspended VM) and has
 * just woken up, before its event loop ran a single timer. Invariant: `now()` never goes back.
 */
import type { Clock, FakeClock, Timer } from 'kube-converge/meta';

export class WakingClock implements Clock {
  #frozenMs = 0;
  constructor(readonly inner: FakeClock) {}
  now(): number {
    return this.inner.now() + this.#frozenMs;
  }
  /** A pause moves the monotonic clock too: it measures time that passed, frozen or not. */
  monotonicMs(): number {
    return this.inner.monotonicMs() + this.#frozenMs;
  }
  setTimer(fn: () => void, ms: number): Timer {
    return this.inner.setTimer(fn, ms);
  }
  sleep(ms: number, options?: { signal?: AbortSignal }): Promise<void> {
    return this.inner.sleep(ms, options);
  }
  /** The process was frozen for `ms`: that much time passed, and no timer had a chance to run. */
  wake(ms: number): void {
    this.#frozenMs += ms;
  }
}
