/**
 * ReconcileTracker: per request key (the queue's: `namespace/name`, or every field of a request that
 * carries more, as a multi-cluster `{ cluster, namespace, name }` does), the latest facts a controller
 * knows about its reconciles — what is happening to the key now (its phase), how the last reconcile
 * ended and why, how many failed in a row, and when the next attempt is due — so "why is this object
 * not converged?" has an answer without reading logs. The controller feeds it at the points of its loop (enqueue, start, finish,
 * retry scheduled); nothing here touches the queue or changes what the loop does.
 *
 *     add ──▶ queued ──start──▶ reconciling ──finish──▶ done · waiting-requeue · waiting-retry · terminal
 *               ▲                                         │
 *               └──────── an add at once ─────────────────┘   (a waiting key that falls due starts again)
 *
 * An add at once while reconciling makes the finish land in `queued`: the queue hands the key out again.
 *
 * Invariants: every update is O(1) (a map lookup and a few field writes); memory is bounded by
 * `maxKeys`, evicting the key updated least recently; readers get frozen snapshots, so the cost of
 * reading is paid only by whoever reads. Times are the host clock's milliseconds.
 */
import { ConvergeError } from '../meta/index.js';
import type { Clock } from '../meta/index.js';
import { defaultKeyOf } from '../workqueue/index.js';
import type { Request, Result } from './reconciler.js';

/**
 * Where a key stands:
 * - `queued`: ready in the queue (or re-added while it was reconciling), waiting for a worker;
 * - `reconciling`: a worker runs the reconciler for it now;
 * - `waiting-retry`: the last reconcile failed; retried with backoff at `nextAttemptAt`;
 * - `waiting-requeue`: reconciled again at `nextAttemptAt` (`requeueAfter`, or a delayed add);
 * - `done`: the last reconcile succeeded and nothing is scheduled;
 * - `terminal`: the last reconcile threw a `TerminalError`; only a new event reconciles it again.
 */
export type ReconcilePhase = 'queued' | 'reconciling' | 'waiting-retry' | 'waiting-requeue' | 'done' | 'terminal';

/** How a reconcile ended, with the names of `controller_runtime_reconcile_total`'s results (plus `terminal`). */
export type ReconcileOutcome = 'success' | 'requeue_after' | 'error' | 'terminal';

/** What a failed reconcile threw, reduced to what explains it. */
export interface ReconcileErrorInfo {
  /** For an API `Status` error, the server's own message (the code and reason are below); else the error's. */
  readonly message: string;
  /** The `ConvergeError` code, e.g. `CONVERGE_API_STATUS`. */
  readonly code?: string;
  /** The API `Status` reason of a `StatusError` (or any error with `status.reason`), e.g. `Conflict`. */
  readonly reason?: string;
}

/** A read-only snapshot of one key. @extension */
export interface ReconcileState {
  readonly request: Request;
  readonly phase: ReconcilePhase;
  /** When the next attempt is due (`waiting-retry`, `waiting-requeue`). */
  readonly nextAttemptAt?: number;
  readonly lastOutcome?: ReconcileOutcome;
  /** What the last successful reconcile returned. */
  readonly lastResult?: Result;
  /** What the last failed reconcile threw; cleared by a success. */
  readonly lastError?: ReconcileErrorInfo;
  /** Reconciles that failed in a row (the backoff's `numRequeues`; terminal errors count too); 0 after a success. */
  readonly failures: number;
  readonly lastReconcileID?: string;
  readonly lastStartedAt?: number;
  readonly lastFinishedAt?: number;
  /** Reconciles started for this key since it was first tracked. */
  readonly reconciles: number;
}

/** What the controller hands the tracker when a reconcile ends. */
export type FinishedReconcile = { ok: true; result: Result } | { ok: false; err: unknown; terminal: boolean };

/** controller-runtime keeps nothing like this; 10,000 keys is a few MB at most. */
export const DEFAULT_TRACKED_KEYS = 10_000;

interface Entry {
  readonly key: string;
  /** Neighbours in update order (an intrusive list: moving an entry to the end is a few pointer writes). */
  prev: Entry | undefined;
  next: Entry | undefined;
  request: Request;
  phase: ReconcilePhase;
  nextAttemptAt: number | undefined;
  lastOutcome: ReconcileOutcome | undefined;
  lastResult: Result | undefined;
  lastError: ReconcileErrorInfo | undefined;
  failures: number;
  lastReconcileID: string | undefined;
  lastStartedAt: number | undefined;
  lastFinishedAt: number | undefined;
  reconciles: number;
  /** An immediate add arrived while reconciling: the queue hands the key out again right after. */
  addedWhileReconciling: boolean;
  /** The earliest due time of delayed adds made while reconciling: the queue holds them meanwhile. */
  dueAddedWhileReconciling: number | undefined;
}

export class ReconcileTracker {
  readonly #clock: Clock;
  readonly #maxKeys: number;
  readonly #entries = new Map<string, Entry>();
  /** The least and the most recently updated entries. */
  #head: Entry | undefined;
  #tail: Entry | undefined;

  constructor(options: { clock: Clock; maxKeys?: number }) {
    this.#clock = options.clock;
    this.#maxKeys = options.maxKeys ?? DEFAULT_TRACKED_KEYS;
  }

  /** Keys tracked now (at most `maxKeys`). */
  get size(): number {
    return this.#entries.size;
  }

  /** A source added `req`, at once (`afterMs <= 0`) or after a delay. */
  enqueued(req: Request, afterMs: number): void {
    const e = this.#touch(req, afterMs <= 0 ? 'queued' : 'waiting-requeue');
    if (e.phase === 'reconciling') {
      if (afterMs <= 0) {
        e.addedWhileReconciling = true;
      } else {
        const at = this.#clock.now() + afterMs;
        e.dueAddedWhileReconciling = Math.min(e.dueAddedWhileReconciling ?? at, at);
      }
      return;
    }
    if (afterMs <= 0) {
      e.phase = 'queued';
      e.nextAttemptAt = undefined;
    } else if (e.phase !== 'queued') {
      this.#schedule(e, e.phase === 'waiting-retry' ? 'waiting-retry' : 'waiting-requeue', afterMs);
    }
  }

  /** The rate limiter chose `delayMs` for a retry of `req` (after a failure, or a rate-limited add). */
  retryScheduled(req: Request, delayMs: number): void {
    const e = this.#touch(req, 'waiting-retry');
    if (e.phase === 'queued' || e.phase === 'reconciling') return;
    this.#schedule(e, 'waiting-retry', delayMs);
  }

  /** A worker starts reconciling `req`. */
  started(req: Request, reconcileID: string): void {
    const e = this.#touch(req, 'reconciling');
    e.phase = 'reconciling';
    e.nextAttemptAt = undefined;
    e.addedWhileReconciling = false;
    e.dueAddedWhileReconciling = undefined;
    e.lastReconcileID = reconcileID;
    e.lastStartedAt = this.#clock.now();
    e.reconciles++;
  }

  /**
   * The reconcile of `req` ended. Called before the controller requeues it, so that `retryScheduled`
   * from the rate limiter lands on the failure it belongs to.
   */
  finished(req: Request, outcome: FinishedReconcile): void {
    const e = this.#touch(req, 'reconciling');
    const now = this.#clock.now();
    e.lastFinishedAt = now;
    e.nextAttemptAt = undefined;
    if (!outcome.ok) {
      e.lastOutcome = outcome.terminal ? 'terminal' : 'error';
      e.lastError = errorInfo(outcome.err);
      e.failures++;
      e.phase = outcome.terminal ? 'terminal' : 'waiting-retry';
    } else {
      const { result } = outcome;
      e.lastResult = result;
      e.lastError = undefined;
      e.failures = 0;
      if (result.requeueAfter !== undefined && result.requeueAfter > 0) {
        e.lastOutcome = 'requeue_after';
        e.phase = 'waiting-requeue';
        e.nextAttemptAt = now + result.requeueAfter;
      } else {
        e.lastOutcome = 'success';
        e.phase = 'done';
      }
    }
    const due = e.dueAddedWhileReconciling;
    e.dueAddedWhileReconciling = undefined;
    if (e.addedWhileReconciling) {
      e.addedWhileReconciling = false;
      e.phase = 'queued';
      e.nextAttemptAt = undefined;
    } else if (due !== undefined) {
      if (e.phase === 'done' || e.phase === 'terminal') e.phase = 'waiting-requeue';
      e.nextAttemptAt = Math.min(e.nextAttemptAt ?? due, due);
    }
  }

  /** The snapshot of `req`, or undefined if it was never seen (or was evicted). */
  state(req: Request): ReconcileState | undefined {
    const e = this.#entries.get(defaultKeyOf(req));
    return e && snapshot(e);
  }

  /** Snapshots of every tracked key, least recently updated first. */
  states(): ReconcileState[] {
    const out: ReconcileState[] = [];
    for (let e = this.#head; e; e = e.next) out.push(snapshot(e));
    return out;
  }

  #schedule(e: Entry, phase: 'waiting-retry' | 'waiting-requeue', delayMs: number): void {
    const at = this.#clock.now() + Math.max(0, delayMs);
    // The queue keeps the earliest ready time of a waiting key; so does the tracker.
    const waiting = e.phase === 'waiting-retry' || e.phase === 'waiting-requeue';
    e.nextAttemptAt = waiting && e.nextAttemptAt !== undefined ? Math.min(e.nextAttemptAt, at) : at;
    e.phase = phase;
  }

  /**
   * The entry of `req`, created in `phase` if new, moved to the most-recently-updated end; evicts
   * past `maxKeys`.
   */
  #touch(req: Request, phase: ReconcilePhase): Entry {
    const key = defaultKeyOf(req);
    let e = this.#entries.get(key);
    if (e) {
      if (e !== this.#tail) {
        this.#unlink(e);
        this.#append(e);
      }
      return e;
    }
    e = {
      key,
      prev: undefined,
      next: undefined,
      request: requestCopy(req),
      phase,
      nextAttemptAt: undefined,
      lastOutcome: undefined,
      lastResult: undefined,
      lastError: undefined,
      failures: 0,
      lastReconcileID: undefined,
      lastStartedAt: undefined,
      lastFinishedAt: undefined,
      reconciles: 0,
      addedWhileReconciling: false,
      dueAddedWhileReconciling: undefined,
    };
    this.#entries.set(key, e);
    this.#append(e);
    if (this.#entries.size > this.#maxKeys) {
      const oldest = this.#head!;
      this.#unlink(oldest);
      this.#entries.delete(oldest.key);
    }
    return e;
  }

  #unlink(e: Entry): void {
    if (e.prev) e.prev.next = e.next;
    else this.#head = e.next;
    if (e.next) e.next.prev = e.prev;
    else this.#tail = e.prev;
    e.prev = e.next = undefined;
  }

  #append(e: Entry): void {
    e.prev = this.#tail;
    if (this.#tail) this.#tail.next = e;
    else this.#head = e;
    this.#tail = e;
  }
}

function snapshot(e: Entry): ReconcileState {
  const s: { -readonly [K in keyof ReconcileState]: ReconcileState[K] } = {
    request: e.request,
    phase: e.phase,
    failures: e.failures,
    reconciles: e.reconciles,
  };
  if (e.nextAttemptAt !== undefined) s.nextAttemptAt = e.nextAttemptAt;
  if (e.lastOutcome !== undefined) s.lastOutcome = e.lastOutcome;
  if (e.lastResult !== undefined) s.lastResult = Object.freeze({ ...e.lastResult });
  if (e.lastError !== undefined) s.lastError = e.lastError;
  if (e.lastReconcileID !== undefined) s.lastReconcileID = e.lastReconcileID;
  if (e.lastStartedAt !== undefined) s.lastStartedAt = e.lastStartedAt;
  if (e.lastFinishedAt !== undefined) s.lastFinishedAt = e.lastFinishedAt;
  return Object.freeze(s);
}

/** Message, code and API reason of anything thrown; never throws itself (a thrown value may be hostile). */
export function errorInfo(err: unknown): ReconcileErrorInfo {
  const info: { message: string; code?: string; reason?: string } = { message: messageOf(err) };
  try {
    if (ConvergeError.is(err)) info.code = err.code;
    const status = (err as { status?: { reason?: unknown; message?: unknown } } | null)?.status;
    if (typeof status?.reason === 'string' && status.reason !== '') info.reason = status.reason;
    if (typeof status?.message === 'string' && status.message !== '') info.message = status.message;
  } catch {
    // A getter or proxy that throws leaves code and reason unknown; the message still says what happened.
  }
  return Object.freeze(info);
}

function messageOf(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    // e.g. an object without a prototype, or a proxy whose every trap throws
    try {
      return Object.prototype.toString.call(err);
    } catch {
      return `<unprintable ${typeof err}>`;
    }
  }
}

/** A copy of `req` with every field it carries (a fleet request's cluster too), without an empty namespace. */
function requestCopy(req: Request): Request {
  const { namespace, ...rest } = req;
  return namespace ? { ...rest, namespace } : rest;
}
