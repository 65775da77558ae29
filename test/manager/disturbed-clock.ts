/**
 * A test clock for what a real process's clocks go through, on top of a `FakeClock` that runs every
 * timer and sleep: `step(ms)` moves the wall clock alone (an NTP correction, a user setting the date),
 * and `wake(ms)` moves both clocks without firing any timer (a process frozen by SIGSTOP, a long GC or
 * a suspended VM, just woken, before its event loop ran). Invariant: `monotonicMs()` never goes back
 * and sees only `wake`s; `now()` sees both.
 */
import type { Clock, FakeClock, Timer } from 'kube-converge/meta';

export class DisturbedClock implements Clock {
  #stepMs = 0;
  #frozenMs = 0;
  constructor(readonly inner: FakeClock) {}
  now(): number {
    return this.inner.now() + this.#stepMs + this.#frozenMs;
  }
  monotonicMs(): number {
    return this.inner.monotonicMs() + this.#frozenMs;
  }
  setTimer(fn: () => void, ms: number): Timer {
    return this.inner.setTimer(fn, ms);
  }
  sleep(ms: number, options?: { signal?: AbortSignal | undefined }): Promise<void> {
    return this.inner.sleep(ms, options);
  }
  /** The wall clock jumps by `ms` (negative: backwards); the monotonic clock does not notice. */
  step(ms: number): void {
    this.#stepMs += ms;
  }
  /** The process was frozen for `ms`: that much time passed on both clocks, and no timer had a chance to run. */
  wake(ms: number): void {
    this.#frozenMs += ms;
  }
}
