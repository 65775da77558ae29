/**
 * ControllerHost: what a controller needs from the process that runs it (in practice the Manager),
 * written as an interface so `src/controller` never imports `src/manager`. The manager implements it;
 * tests may implement it over a bare informer factory. Invariant: informers handed out by
 * `getInformer` come from one shared cache (one list/watch per kind and options), and runnables added
 * with `add` are started by the host in controller-runtime's order.
 */
import type { Clock, KubeObject, Logger, NamespacedName, ResourceDescriptor } from '../meta/index.js';
import type { SharedIndexInformer } from '../cache/index.js';
import type { WorkqueueMetricsProvider } from '../workqueue/index.js';

/** Something the host starts and stops. `start` resolves when `signal` aborts and the work ended. @extension */
export interface Runnable {
  start(signal: AbortSignal): Promise<void>;
  /** Default true: only the elected leader runs it. */
  needLeaderElection?(): boolean;
}

/** Metrics a controller reports (controller-runtime's names; the manager backs them with prom-client). @extension */
export interface ControllerMetrics {
  reconcileTotal(controller: string, result: 'success' | 'error' | 'requeue' | 'requeue_after'): void;
  reconcileErrors(controller: string): void;
  terminalReconcileErrors(controller: string): void;
  reconcilePanics(controller: string): void;
  reconcileTimeouts(controller: string): void;
  /** A reconcile ran without the cache having observed its predecessor's writes, its wait having timed out. */
  readYourWritesTimeouts(controller: string): void;
  reconcileTime(controller: string, seconds: number): void;
  maxConcurrentReconciles(controller: string, n: number): void;
  activeWorkers(controller: string, delta: 1 | -1): void;
}

/** What a controller needs from the process that runs it (a Manager): informers, client, logger, clock and metrics. @extension */
export interface ControllerHost<C = unknown> {
  /** The client reconcilers receive (the manager's split client: cached reads, direct writes). */
  readonly client: C;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly controllerMetrics?: ControllerMetrics;
  readonly workqueueMetrics?: WorkqueueMetricsProvider;
  /**
   * The shared informer for a kind; created on first use and started with the cache. Rejects (to be
   * retried by the source) when the kind is not served yet, e.g. a CRD not installed.
   */
  getInformer<T extends KubeObject>(
    resource: ResourceDescriptor<T>,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<SharedIndexInformer<T>>;
  /** Registers a runnable; started at once if the host already runs. */
  add(runnable: Runnable): void;
  /** Reserves a controller name; throws if it is taken (names are unique per host unless skipped). */
  registerControllerName(name: string): void;
  /**
   * Optional gate in front of every reconcile: an `Admission` lets the request through; undefined
   * drops it unreconciled and forgotten. A sharded manager drops requests of namespaces it does not
   * own, waits on `done` before handing a shard to a peer, and aborts the admission's signal when the
   * shard is lost; a manager with leader election drops a leader-elected `runnable`'s requests once it
   * does not lead.
   */
  admitReconcile?(req: NamespacedName, runnable: Runnable): Admission | undefined;
}

/** A reconcile let through by the host's gate. @extension */
export interface Admission {
  /**
   * Aborts when the host withdraws the right to run this reconcile (its shard was lost): the
   * reconcile's `ctx.signal` aborts with it. Absent when only the controller's stop can end it.
   */
  readonly signal?: AbortSignal | undefined;
  /** Called once, when the reconcile settled. */
  done(): void;
}
