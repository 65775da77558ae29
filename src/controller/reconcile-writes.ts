/**
 * The writes of the reconcile running now: a client records each write it made on the reconcile's
 * behalf with `noteReconcileWrite`, and the controller collects them when the reconcile settles, to
 * hold the next reconcile of the same request until the cache has seen them (read-your-writes).
 * The current reconcile is carried by async context, so a client needs no handle on the controller
 * and concurrent reconciles never see each other's writes. Invariant: a write made outside any
 * reconcile is ignored, and a write is kept once per object (the last one wins, as it is the newest).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** One write a reconcile made, as the client that made it can check it against its cache. */
export interface ReconcileWrite {
  /** Which object, for logs: `<kind> <namespace>/<name>`; also the identity of the write within a reconcile. */
  readonly object: string;
  /** Whether the cache the reconciler reads from has observed this write (or made it moot). */
  observed(): boolean;
}

const current = new AsyncLocalStorage<Map<string, ReconcileWrite>>();

/** Records a write of the reconcile running in this async context; outside a reconcile, does nothing. @extension */
export function noteReconcileWrite(write: ReconcileWrite): void {
  current.getStore()?.set(write.object, write);
}

/**
 * Runs `fn` as one reconcile: `result` is its promise, and `writes()` the writes it noted so far
 * (all of them once `result` settled, whether it resolved or rejected).
 */
export function recordReconcileWrites<R>(fn: () => Promise<R>): { result: Promise<R>; writes(): ReconcileWrite[] } {
  const writes = new Map<string, ReconcileWrite>();
  // Async, so that a reconciler that throws before returning a promise rejects like any other.
  return { result: current.run(writes, async () => fn()), writes: () => [...writes.values()] };
}
