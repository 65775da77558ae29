/**
 * Controller: one work queue, the sources that feed it, and `maxConcurrentReconciles` async workers
 * that call the reconciler (controller-runtime's internal controller). It is a `Runnable`: the host
 * starts it with a signal and it runs until that signal aborts; it may be started again after that.
 *
 *     sources ──events──▶ predicates ──▶ handlers ──requests──▶ queue ──get──▶ workers ──▶ reconciler
 *                                                                  ▲                          │
 *                                                                  └── rate-limited / after ──┘
 *
 * Invariants:
 * - a request is never reconciled twice at once (the queue hands a key to one worker until `done`);
 * - workers start only after every source has started and synced, within `cacheSyncTimeoutMs`;
 * - what happens after a reconcile follows controller-runtime's order of checks exactly (see
 *   `#afterReconcile`), and every outcome is counted in one `controller_runtime_reconcile_total` result;
 * - a reconciler that throws or rejects, with anything, never stops the controller or the process;
 * - the latest facts about each request (phase, last outcome and error, failures, next attempt) are
 *   kept in a bounded `ReconcileTracker` fed at the same points (`reconcileState`), observing only.
 *
 * Stopping: when the start signal aborts, the queue shuts down and queued requests are not started.
 * Reconciles in flight see their `ctx.signal` abort (as controller-runtime cancels their context), and
 * `start` resolves only once every one of them has settled: a reconciler that ignores the signal runs
 * to completion; one that honours it stops early, which is safe because reconciling is level-triggered
 * and whoever runs next redoes the work.
 */
import { randomUUID } from 'node:crypto';
import { InvalidOptionError } from '../meta/index.js';
import type { KubeObject, Logger, ResourceDescriptor } from '../meta/index.js';
import {
  PriorityQueue,
  RateLimitingQueue,
  defaultControllerRateLimiter,
  defaultPriorityQueueRateLimiter,
  withPriority,
} from '../workqueue/index.js';
import type { PriorityInterface } from '../workqueue/index.js';
import { AlreadyStartedError, CacheSyncTimeoutError } from './errors.js';
import type { RequestQueue } from './handler.js';
import type { Admission, ControllerHost, ControllerMetrics, Runnable } from './host.js';
import { resolveControllerOptions } from './options.js';
import type { ControllerOptions, ResolvedControllerOptions } from './options.js';
import { ReadYourWritesGate } from './read-your-writes-gate.js';
import { ReconcileTracker } from './reconcile-tracker.js';
import { recordReconcileWrites } from './reconcile-writes.js';
import type { ReconcileState } from './reconcile-tracker.js';
import type { Reconciler, Request, Result } from './reconciler.js';
import type { Source, SourceContext } from './source.js';
import { isTerminalError } from './terminal-error.js';
import { tapEnqueues, tapRetries } from './tracking-taps.js';
import { ReconcileTracing } from './tracing.js';

/** Options of `newController`: its name, its reconciler, the kinds it reconciles and owns, and the controller options. */
export interface NewControllerOptions<C> extends ControllerOptions {
  /** Unique per host (unless `skipNameValidation`); labels metrics and logs and names the queue. */
  name: string;
  reconciler: Reconciler<C>;
  /**
   * The kind this controller reconciles (the builder's `for`) and the kinds it owns (`owns`): what
   * the manager's `explain` uses to find the controllers of an object. Informational only.
   */
  forResource?: ResourceDescriptor<KubeObject> | undefined;
  ownedResources?: readonly ResourceDescriptor<KubeObject>[];
}

/**
 * Creates a controller and adds it to `host` as a runnable (controller-runtime's `controller.New`).
 * Reserves the name on the host first, unless `skipNameValidation`. Add its sources with `watch` at
 * once: a host that already runs starts the controller right away, and sources watched after that are
 * started without being waited for. (The builder adds sources first, then the controller.)
 */
export function newController<C>(host: ControllerHost<C>, options: NewControllerOptions<C>): Controller<C> {
  const controller = newUnmanagedController(host, options);
  host.add(controller);
  return controller;
}

/** Creates a controller without adding it to the host; the caller starts it (`controller.NewUnmanaged`). @extension */
export function newUnmanagedController<C>(host: ControllerHost<C>, options: NewControllerOptions<C>): Controller<C> {
  const { name, reconciler, forResource, ownedResources, ...rest } = options;
  if (!name) throw new InvalidOptionError('name', 'a controller needs a non-empty name');
  const resolved = resolveControllerOptions(rest);
  if (!resolved.skipNameValidation) host.registerControllerName(name);
  return new Controller({ host, name, reconciler, options: resolved, forResource, ownedResources });
}

/** What a `Controller` is made of, once `newUnmanagedController` has validated the name and resolved the options. */
export interface ControllerInit<C> {
  host: ControllerHost<C>;
  name: string;
  reconciler: Reconciler<C>;
  options: ResolvedControllerOptions;
  forResource?: ResourceDescriptor<KubeObject> | undefined;
  ownedResources?: readonly ResourceDescriptor<KubeObject>[] | undefined;
}

/** A work queue, the sources that feed it and the workers that call the reconciler; made by `newController` or the builder. @extension */
export class Controller<C = unknown> implements Runnable {
  readonly name: string;
  readonly options: ResolvedControllerOptions;
  /** The kind reconciled (requests name objects of this kind), when known. */
  readonly forResource: ResourceDescriptor<KubeObject> | undefined;
  /** Kinds whose changes enqueue their controller owner of `forResource`. */
  readonly ownedResources: readonly ResourceDescriptor<KubeObject>[];
  readonly #host: ControllerHost<C>;
  readonly #reconciler: Reconciler<C>;
  readonly #log: Logger;
  readonly #metrics: ControllerMetrics | undefined;
  readonly #sources: Source[] = [];
  readonly #tracker: ReconcileTracker;
  readonly #tracing: ReconcileTracing;
  readonly #readYourWrites: ReadYourWritesGate | undefined;
  /** Set by `start` while it runs: what sources added meanwhile are started with. */
  #running: SourceContext | undefined;
  /** Whether a `start` is under way (one at a time; another may follow once it returned). */
  #started = false;

  /** Use `newController` (or the builder), which validate the name and options. */
  constructor({ host, name, reconciler, options, forResource, ownedResources }: ControllerInit<C>) {
    this.name = name;
    this.options = options;
    this.forResource = forResource;
    this.ownedResources = Object.freeze([...(ownedResources ?? [])]);
    this.#tracker = new ReconcileTracker({ clock: host.clock });
    this.#tracing = new ReconcileTracing({ controller: name, clock: host.clock });
    this.#host = host;
    this.#reconciler = reconciler;
    this.#log = host.logger.child({ controller: name });
    this.#metrics = host.controllerMetrics;
    this.#readYourWrites = options.readYourWrites
      ? new ReadYourWritesGate({
          clock: host.clock,
          timeoutMs: options.readYourWritesTimeoutMs,
          controller: name,
          log: this.#log,
          metrics: this.#metrics,
        })
      : undefined;
  }

  /** What this controller knows about `req`'s reconciles, or undefined if it never saw it (or forgot it). */
  reconcileState(req: Request): ReconcileState | undefined {
    return this.#tracker.state(req);
  }

  /** What this controller knows about every request it tracks (at most 10,000), least recently updated first. */
  reconcileStates(): ReconcileState[] {
    return this.#tracker.states();
  }

  needLeaderElection(): boolean {
    return this.options.needLeaderElection;
  }

  /**
   * Adds a source. Before `start` it is kept and started (and synced) with the others; once the
   * controller runs it is started at once, without waiting for it to sync (and kept for a later
   * start, like the others). Rejects if it cannot start.
   */
  async watch(source: Source): Promise<void> {
    this.#sources.push(source);
    if (this.#running) await source.start(this.#running);
  }

  /**
   * Runs the controller until `signal` aborts; resolves once every in-flight reconcile settled.
   * Rejects if it is running already, or if a source fails to start or sync in time (naming its kind).
   * Once it returned it may be started again (a manager rejoining leader election does): the run
   * begins from nothing, with a fresh queue its sources fill again from their caches.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new AlreadyStartedError(`controller ${this.name}`);
    this.#started = true;
    try {
      await this.#run(signal);
    } finally {
      this.#running = undefined;
      this.#started = false;
    }
  }

  async #run(signal: AbortSignal): Promise<void> {
    this.#metrics?.maxConcurrentReconciles(this.name, this.options.maxConcurrentReconciles);
    const queue = this.#newQueue();
    // `life` also ends when start fails, so that sources already registered stop feeding a dead queue.
    const failed = new AbortController();
    const life = AbortSignal.any([signal, failed.signal]);
    const stop = (): void => queue.shutDown();
    if (life.aborted) stop();
    else life.addEventListener('abort', stop, { once: true });
    try {
      const ctx: SourceContext = {
        signal: life,
        queue: this.#tracing.tapQueue(tapEnqueues(queue, this.#tracker)),
        host: this.#host as ControllerHost<unknown>,
        log: this.#log,
      };
      const sources = [...this.#sources];
      this.#running = ctx; // from here on, watch() starts sources itself
      await Promise.all(sources.map((s) => this.#startSource(s, ctx)));
      if (life.aborted) return;
      this.#log.info({ workerCount: this.options.maxConcurrentReconciles }, 'Starting workers');
      const workers = Array.from({ length: this.options.maxConcurrentReconciles }, () => this.#worker(queue, life));
      await Promise.all(workers);
      this.#log.info({}, 'All workers finished');
    } catch (err) {
      failed.abort(err);
      throw err;
    } finally {
      life.removeEventListener('abort', stop);
    }
  }

  #newQueue(): PriorityInterface<Request> {
    const common = {
      name: this.name,
      clock: this.#host.clock,
      metricsProvider: this.#host.workqueueMetrics,
      // The queue's own default, built here so that the tracker sees every retry delay.
      rateLimiter: tapRetries(
        this.options.rateLimiter ??
          (this.options.usePriorityQueue
            ? defaultPriorityQueueRateLimiter<Request>()
            : defaultControllerRateLimiter<Request>({ clock: this.#host.clock })),
        this.#tracker,
      ),
    };
    return this.options.usePriorityQueue ? new PriorityQueue<Request>(common) : withPriority(new RateLimitingQueue<Request>(common));
  }

  /** Starts one source and waits for it to sync, bounded by `cacheSyncTimeoutMs`. Stopping is not an error. */
  async #startSource(source: Source, ctx: SourceContext): Promise<void> {
    const timeoutMs = this.options.cacheSyncTimeoutMs;
    const timeout = new AbortController();
    const timer = this.#host.clock.setTimer(
      () => timeout.abort(new CacheSyncTimeoutError(this.name, String(source), timeoutMs)),
      timeoutMs,
    );
    try {
      this.#log.info({ source: String(source) }, 'Starting EventSource');
      await source.start(ctx);
      await source.waitForSync?.({ signal: AbortSignal.any([ctx.signal, timeout.signal]) });
    } catch (err) {
      if (timeout.signal.aborted) {
        this.#log.error({ source: String(source), timeoutMs }, 'Could not wait for Cache to sync');
        throw timeout.signal.reason;
      }
      if (ctx.signal.aborted) return;
      throw err;
    } finally {
      timer.cancel();
    }
  }

  async #worker(queue: RequestQueue, life: AbortSignal): Promise<void> {
    for (;;) {
      const next = await queue.getWithPriority();
      if (next.shutdown) return;
      try {
        // A client-go queue still hands out queued items after shutdown: they must not start.
        if (life.aborted) continue;
        if (this.#readYourWrites?.hold(next, queue)) continue;
        const admitted = this.#host.admitReconcile ? this.#host.admitReconcile(next.item, this) : admittedAlways;
        if (!admitted) {
          queue.forget(next.item);
          this.#log.debug({ namespace: next.item.namespace ?? '', name: next.item.name }, 'Request dropped: not admitted by the host');
          continue;
        }
        this.#metrics?.activeWorkers(this.name, 1);
        try {
          await this.#reconcileHandler(queue, next.item, next.priority, admitted.signal ? AbortSignal.any([life, admitted.signal]) : life);
        } finally {
          this.#metrics?.activeWorkers(this.name, -1);
          admitted.done();
        }
      } finally {
        queue.done(next.item);
      }
    }
  }

  /**
   * One reconcile of `req`, then the bookkeeping of its outcome. Never throws. `until` aborts when the
   * controller stops or the host withdraws the request's admission.
   */
  async #reconcileHandler(queue: RequestQueue, req: Request, dequeuedPriority: number, until: AbortSignal): Promise<void> {
    const clock = this.#host.clock;
    const startedAt = clock.now();
    const reconcileID = randomUUID();
    const log = this.#log.child({ namespace: req.namespace ?? '', name: req.name, reconcileID });
    const timeoutMs = this.options.reconciliationTimeoutMs;
    let timedOut = false;
    let signal = until;
    let timer: { cancel(): void } | undefined;
    if (timeoutMs > 0) {
      const timeout = new AbortController();
      timer = clock.setTimer(() => {
        timedOut = true;
        timeout.abort(new DOMException(`reconcile timed out after ${timeoutMs}ms`, 'TimeoutError'));
      }, timeoutMs);
      signal = AbortSignal.any([until, timeout.signal]);
    }

    let outcome: { ok: true; result: Result } | { ok: false; err: unknown; panic: boolean };
    log.debug({}, 'Reconciling');
    this.#tracker.started(req, reconcileID);
    const span = this.#tracing.start(req, reconcileID);
    const run = recordReconcileWrites(() => span.run(() => this.#reconciler(req, { client: this.#host.client, log, signal, reconcileID })));
    try {
      const result = (await run.result) ?? {};
      const invalid = invalidResult(result);
      outcome = invalid ? { ok: false, err: invalid, panic: false } : { ok: true, result };
    } catch (err) {
      outcome = { ok: false, err, panic: !(err instanceof Error) };
    } finally {
      timer?.cancel();
      this.#readYourWrites?.finished(req, run.writes());
    }
    if (timedOut) this.#metrics?.reconcileTimeouts(this.name);
    this.#afterReconcile(queue, req, dequeuedPriority, outcome, log);
    span.end(outcome);
    this.#metrics?.reconcileTime(this.name, (clock.now() - startedAt) / 1000);
  }

  /**
   * controller-runtime's order of checks. A thrown value that is not an `Error` is what Go would call a
   * panic: it is counted in `reconcile_panics_total` too, then handled like any other error.
   * (Go's deprecated `Requeue` has no equivalent: throw, or return `requeueAfter`.)
   */
  #afterReconcile(
    queue: RequestQueue,
    req: Request,
    dequeuedPriority: number,
    outcome: { ok: true; result: Result } | { ok: false; err: unknown; panic: boolean },
    log: Logger,
  ): void {
    const name = this.name;
    const m = this.#metrics;
    // Before any requeue: the limiter's tap then notes the retry delay on this failure.
    this.#tracker.finished(req, outcome.ok ? outcome : { ok: false, err: outcome.err, terminal: isTerminalError(outcome.err) });
    if (!outcome.ok) {
      const { err } = outcome;
      if (outcome.panic) {
        m?.reconcilePanics(name);
        const text = describeThrown(err);
        log.error({ panic: text }, `Observed a panic: ${text} [recovered]`);
      }
      if (isTerminalError(err)) {
        m?.terminalReconcileErrors(name);
        log.error({ err, terminal: true }, 'Reconciler error (terminal: not retried)');
      } else {
        queue.addWithOpts({ rateLimited: true, priority: dequeuedPriority }, req);
        log.error({ err }, 'Reconciler error');
      }
      m?.reconcileErrors(name);
      m?.reconcileTotal(name, 'error');
      return;
    }
    const { result } = outcome;
    const priority = result.priority ?? dequeuedPriority;
    if (result.requeueAfter !== undefined && result.requeueAfter > 0) {
      queue.forget(req);
      queue.addWithOpts({ after: result.requeueAfter, priority }, req);
      log.debug({ requeueAfterMs: result.requeueAfter }, 'Reconcile done, requeueing after delay');
      m?.reconcileTotal(name, 'requeue_after');
      return;
    }
    queue.forget(req);
    log.debug({}, 'Reconcile successful');
    m?.reconcileTotal(name, 'success');
  }
}

/** The admission of every request by a host without a gate. */
const admittedAlways: Admission = Object.freeze({ done: () => {} });

/**
 * A result the queue could not act on (a delay or priority that is not a finite number) becomes an
 * error, so the reconciler's bug is logged and retried with backoff instead of stopping a worker. A
 * negative `requeueAfter` is allowed and means "no requeue", as in controller-runtime.
 */
function invalidResult(result: Result): InvalidOptionError | undefined {
  if (result.requeueAfter !== undefined && !Number.isFinite(result.requeueAfter)) {
    return new InvalidOptionError('result.requeueAfter', `must be a finite number of milliseconds, got ${String(result.requeueAfter)}`);
  }
  if (result.priority !== undefined && !Number.isFinite(result.priority)) {
    return new InvalidOptionError('result.priority', `must be a finite number, got ${String(result.priority)}`);
  }
  return undefined;
}

/** `String(v)`, or the object tag when even that throws (e.g. an object without a prototype). */
function describeThrown(v: unknown): string {
  try {
    return String(v);
  } catch {
    return Object.prototype.toString.call(v);
  }
}
