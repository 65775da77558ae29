/**
 * Deadlines for tests that run managers and servers as separate processes, derived from the settings
 * under test rather than from how fast the test machine happens to be. Invariant: every bound is a
 * promise of the code under test (a lease duration, a renew deadline, a retry period) multiplied by
 * LOAD_STRETCH, so a test waits for the event it expects as long as a busy CI machine may need, and
 * a failure still means the promise was broken, not that the machine was slow.
 */
import { availableParallelism, loadavg } from 'node:os';

/** The lease settings a test gives the processes it starts, in milliseconds. */
export interface LeaseTimings {
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

/**
 * How much longer a step may take on a busy machine than on an idle one: at a load of L on C cores each
 * runnable process gets about C/L of a core, so the CPU work around every timer (an HTTP round trip
 * through a proxy, the API server's handling, parsing, the test's own polling) can take L/C times as
 * long, and a timer's callback waits behind it. The suite must pass on two cores at a load of 16, so
 * the stretch is at least 16/2 = 8; a machine measured busier than that (the one-minute load average
 * when the test starts) gets its own, larger ratio. Waits are multiplied by this, never raised by a
 * guessed number of seconds.
 */
export const LOAD_STRETCH = Math.max(16 / 2, loadavg()[0]! / availableParallelism());

/**
 * Start-up of a Node process that runs TypeScript through tsx, until it prints that it is ready: up to
 * about 3.5 s of CPU on an idle machine (`time node --conditions=source --import tsx src/cli/main.ts
 * --help` takes 3.3 s of user and system time), stretched by load, and doubled because tsx's
 * compile cache may be cold on a fresh checkout.
 */
export const PROCESS_START_MS = 2 * LOAD_STRETCH * 3_500;

/**
 * The most a standby may take to lead after the leader stopped renewing: it must see the Lease
 * unrenewed for one lease duration counted from an observation it makes every retry period (one retry
 * late at worst), then write the Lease on its next round (one more retry), each step stretched by load.
 */
export function takeoverBoundMs(t: LeaseTimings): number {
  return LOAD_STRETCH * (t.leaseDurationMs + 2 * t.retryPeriodMs);
}

/**
 * The most a leader cut off from the API server may keep leading: it gives up once its renew deadline
 * has passed since its last successful renewal, which was no later than the cut, checked every retry
 * period; stretched by load.
 */
export function renewDeadlineBoundMs(t: LeaseTimings): number {
  return LOAD_STRETCH * (t.renewDeadlineMs + t.retryPeriodMs);
}

/**
 * Lease settings for managers run inside the test's own process, which share one event loop with the
 * API server and the test: `base` (the settings on an idle machine) doubled up to a load of 16 on two
 * cores (LOAD_STRETCH 8), and in proportion to the load above that, so a manager starved of CPU still
 * renews before its deadline. Bounds on hand-over and takeover are then derived from the result.
 */
export function inProcessLease(base: LeaseTimings): LeaseTimings {
  const stretch = LOAD_STRETCH / 4;
  return {
    leaseDurationMs: Math.round(base.leaseDurationMs * stretch),
    renewDeadlineMs: Math.round(base.renewDeadlineMs * stretch),
    retryPeriodMs: Math.round(base.retryPeriodMs * stretch),
  };
}
