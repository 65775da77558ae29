/**
 * A test clock whose wall clock can be stepped (an NTP correction, a user setting the date) while its
 * monotonic clock, timers and sleeps run on a `FakeClock` and are untouched by the step. Invariant:
 * `monotonicMs()` is always the fake clock's; only `now()` sees steps.
 */
import type { Clock, FakeClock, Timer } from 'kube-converge/meta';

export class SteppableClock implements Clock {
  #stepMs = 0;
  constructor(readonly inner: FakeClock) {}
  now(): number {
    return this.inner.now() + this.#stepMs;
  }
  monotonicMs(): number {
    return this.inner.monotonicMs();
  }
  setTimer(fn: () => void, ms: number): Timer {
    return this.inner.setTimer(fn, ms);
  }
  sleep(ms: number, options?: { signal?: AbortSignal }): Promise<void> {
    return this.inner.sleep(ms, options);
  }
  /** The wall clock jumps by `ms` (negative: backwards). */
  step(ms: number): void {
    this.#stepMs += ms;
  }
}
