/**
 * The read-your-writes gate of one controller: after a reconcile of a request wrote objects, the next
 * reconcile of that request waits until the cache has observed every one of those writes, so it never
 * acts on state older than its own last reconcile left behind (no duplicate create, no conflict on its
 * own status). The wait is bounded: once `timeoutMs` (on the injected clock) passed since the writes,
 * the reconcile runs anyway and the caller reports it. Invariant: a request's writes are forgotten
 * once it is let through; requests that are never reconciled again are swept once observed or expired,
 * so memory stays bounded by the requests whose writes are still in flight.
 */
import type { Clock, Logger } from '../meta/index.js';
import { defaultKeyOf } from '../workqueue/index.js';
import type { RequestQueue } from './handler.js';
import type { ControllerMetrics } from './host.js';
import type { ReconcileWrite } from './reconcile-writes.js';
import type { Request } from './reconciler.js';

/** How often a held request looks at the cache again, at most; the write's own event usually comes first. */
const RECHECK_MS = 10;

/** Pending requests below this count are never swept: sweeping is for the ones never reconciled again. */
const MIN_SWEEP_SIZE = 1024;

/** What the gate says about a request about to be reconciled. */
export type GateDecision =
  | { readonly pass: true; readonly timedOut?: undefined }
  | { readonly pass: true; readonly timedOut: readonly string[] }
  | { readonly pass: false; readonly retryInMs: number };

interface Pending {
  writes: ReconcileWrite[];
  deadline: number;
}

export class ReadYourWritesGate {
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #pending = new Map<string, Pending>();
  #sweepAt = MIN_SWEEP_SIZE;

  readonly #report: { controller: string; log: Logger; metrics: ControllerMetrics | undefined };

  /** `controller`, `log` and `metrics` are where a reconcile let through by the timeout is reported. */
  constructor(options: { clock: Clock; timeoutMs: number; controller: string; log: Logger; metrics: ControllerMetrics | undefined }) {
    this.#clock = options.clock;
    this.#timeoutMs = options.timeoutMs;
    this.#report = { controller: options.controller, log: options.log, metrics: options.metrics };
  }

  /**
   * Applies the gate to a dequeued request: true when it is held (put back on `queue` to be looked at
   * again shortly, at its priority), false when it may be reconciled now. A request let through only
   * because its time was up is counted and logged with the writes still unseen.
   */
  hold(next: { item: Request; priority: number }, queue: RequestQueue): boolean {
    const decision = this.check(next.item);
    if (!decision.pass) {
      queue.addWithOpts({ after: decision.retryInMs, priority: next.priority }, next.item);
      return true;
    }
    if (decision.timedOut) {
      const { controller, log, metrics } = this.#report;
      metrics?.readYourWritesTimeouts(controller);
      log.info(
        { namespace: next.item.namespace ?? '', name: next.item.name, unobserved: decision.timedOut, timeoutMs: this.#timeoutMs },
        "Reconciling before the cache observed the previous reconcile's writes: it did not catch up in time",
      );
    }
    return false;
  }

  /** Number of requests whose writes the cache has not all observed yet (as last checked). */
  get pending(): number {
    return this.#pending.size;
  }

  /** Remembers the writes of a reconcile of `req` that just settled, those the cache has not observed yet. */
  finished(req: Request, writes: readonly ReconcileWrite[]): void {
    const key = defaultKeyOf(req);
    const unseen = writes.filter((w) => !w.observed());
    if (unseen.length === 0) {
      this.#pending.delete(key);
      return;
    }
    this.#pending.set(key, { writes: unseen, deadline: this.#clock.monotonicMs() + this.#timeoutMs });
    if (this.#pending.size >= this.#sweepAt) this.#sweep();
  }

  /** Whether `req` may be reconciled now: its last writes are observed, or their time is up (naming the unseen ones). */
  check(req: Request): GateDecision {
    const key = defaultKeyOf(req);
    const p = this.#pending.get(key);
    if (!p) return { pass: true };
    p.writes = p.writes.filter((w) => !w.observed());
    const left = p.deadline - this.#clock.monotonicMs();
    if (p.writes.length > 0 && left > 0) return { pass: false, retryInMs: Math.min(RECHECK_MS, left) };
    this.#pending.delete(key);
    return p.writes.length === 0 ? { pass: true } : { pass: true, timedOut: p.writes.map((w) => w.object) };
  }

  /** Drops requests whose writes are all observed or expired, and sweeps again once the map doubled. */
  #sweep(): void {
    const now = this.#clock.monotonicMs();
    for (const [key, p] of this.#pending) {
      if (p.deadline <= now || p.writes.every((w) => w.observed())) this.#pending.delete(key);
    }
    this.#sweepAt = Math.max(MIN_SWEEP_SIZE, 2 * this.#pending.size);
  }
}
