/**
 * Controller options and their defaults (controller-runtime's `controller.Options`), resolved once by
 * one pure function into a frozen value. Durations are milliseconds and say so in their names.
 */
import { requireDuration, requireInt } from '../meta/internal.js';
import type { RateLimiter } from '../workqueue/index.js';
import type { Request } from './reconciler.js';

/** How a controller runs: concurrency, rate limiter, cache sync timeout, leader election and the priority queue. */
export interface ControllerOptions {
  /** Reconciles running at once (each on a different request). Default 1. */
  maxConcurrentReconciles?: number;
  /** How long every source may take to start and sync before `start` fails naming the kind. Default 2 min. */
  cacheSyncTimeoutMs?: number;
  /**
   * Use controller-runtime's priority queue (default true): initial-list and resync events go in at low
   * priority. `false` gives client-go's rate-limiting queue, where priorities are ignored.
   */
  usePriorityQueue?: boolean;
  /**
   * Backoff of failed requests. Default: per-key exponential 5 ms … 1000 s, plus (without the priority
   * queue) client-go's overall 10 qps / burst 100 bucket.
   */
  rateLimiter?: RateLimiter<Request>;
  /** Run only on the elected leader. Default true. */
  needLeaderElection?: boolean;
  /** Allow a name already used on the same host. Default false. */
  skipNameValidation?: boolean;
  /**
   * Abort each reconcile's signal after this many ms (0 = never, the default). A reconcile that ends
   * after its timeout fired counts in `controller_runtime_reconcile_timeouts_total`.
   */
  reconciliationTimeoutMs?: number;
  /**
   * Read-your-writes (default true): after a reconcile of a request wrote objects through the host's
   * client, the next reconcile of that request waits until the cache has observed those writes, so it
   * never acts on state older than its own writes. `false` reconciles as soon as the request is dequeued.
   */
  readYourWrites?: boolean;
  /**
   * How long a reconcile waits for the cache to observe the previous one's writes before it runs
   * anyway (counted in `converge_read_your_writes_timeouts_total` and logged). Default 10 s.
   */
  readYourWritesTimeoutMs?: number;
}

/** The controller options with every default filled in, frozen. */
export interface ResolvedControllerOptions {
  readonly maxConcurrentReconciles: number;
  readonly cacheSyncTimeoutMs: number;
  readonly usePriorityQueue: boolean;
  readonly rateLimiter: RateLimiter<Request> | undefined;
  readonly needLeaderElection: boolean;
  readonly skipNameValidation: boolean;
  readonly reconciliationTimeoutMs: number;
  readonly readYourWrites: boolean;
  readonly readYourWritesTimeoutMs: number;
}

export const CONTROLLER_DEFAULTS = Object.freeze({
  maxConcurrentReconciles: 1,
  cacheSyncTimeoutMs: 2 * 60_000,
  usePriorityQueue: true,
  needLeaderElection: true,
  skipNameValidation: false,
  reconciliationTimeoutMs: 0,
  readYourWrites: true,
  readYourWritesTimeoutMs: 10_000,
});

/**
 * Fills in defaults and validates. Unlike controller-runtime, `maxConcurrentReconciles: 0` is an error
 * rather than silently 1: an explicit zero is a bug in the caller, not a request for the default.
 */
export function resolveControllerOptions(o: ControllerOptions = {}): ResolvedControllerOptions {
  const r: ResolvedControllerOptions = {
    maxConcurrentReconciles: o.maxConcurrentReconciles ?? CONTROLLER_DEFAULTS.maxConcurrentReconciles,
    cacheSyncTimeoutMs: o.cacheSyncTimeoutMs ?? CONTROLLER_DEFAULTS.cacheSyncTimeoutMs,
    usePriorityQueue: o.usePriorityQueue ?? CONTROLLER_DEFAULTS.usePriorityQueue,
    rateLimiter: o.rateLimiter,
    needLeaderElection: o.needLeaderElection ?? CONTROLLER_DEFAULTS.needLeaderElection,
    skipNameValidation: o.skipNameValidation ?? CONTROLLER_DEFAULTS.skipNameValidation,
    reconciliationTimeoutMs: o.reconciliationTimeoutMs ?? CONTROLLER_DEFAULTS.reconciliationTimeoutMs,
    readYourWrites: o.readYourWrites ?? CONTROLLER_DEFAULTS.readYourWrites,
    readYourWritesTimeoutMs: o.readYourWritesTimeoutMs ?? CONTROLLER_DEFAULTS.readYourWritesTimeoutMs,
  };
  requireInt('maxConcurrentReconciles', r.maxConcurrentReconciles, { min: 1 });
  requireDuration('cacheSyncTimeoutMs', r.cacheSyncTimeoutMs);
  requireDuration('reconciliationTimeoutMs', r.reconciliationTimeoutMs);
  requireDuration('readYourWritesTimeoutMs', r.readYourWritesTimeoutMs);
  return Object.freeze(r);
}
