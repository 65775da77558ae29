/**
 * HeadTimer: the one clock timer that a queue of delayed entries keeps armed for its earliest entry,
 * shared by `DelayingQueue` and `PriorityQueue` so that a million waiting items cost one timer.
 *
 * Invariant: at most one timer is pending, and it is due at the time last passed to `arm`; arming
 * again for the same time keeps the pending timer (the common case when an add does not change the
 * heap head). The callback runs with the timer already cleared, so it may `arm` for the next head.
 */
import type { Clock, Timer } from '../meta/index.js';

export interface HeadTimerOptions {
  clock: Clock;
  /** Called when the armed time is reached (or a little early: real clocks may fire early). */
  onDue: () => void;
}

export class HeadTimer {
  readonly #clock: Clock;
  readonly #onDue: () => void;
  #timer: Timer | undefined;
  /** Due time of the pending timer; Infinity when none is pending. */
  #at = Infinity;

  constructor(options: HeadTimerOptions) {
    this.#clock = options.clock;
    this.#onDue = options.onDue;
  }

  /** Makes the pending timer due at `at` (clock milliseconds); `Infinity` cancels it. */
  arm(at: number): void {
    if (at === this.#at) return;
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#at = at;
    if (at === Infinity) return;
    this.#timer = this.#clock.setTimer(() => {
      this.#timer = undefined;
      this.#at = Infinity;
      this.#onDue();
    }, at - this.#clock.now());
  }

  cancel(): void {
    this.arm(Infinity);
  }
}
