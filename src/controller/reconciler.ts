/**
 * The reconciler contract: a function from a request (which object) to a result (what happens next).
 * It is level-triggered by construction: the request names an object, never the event that woke it, so
 * a reconciler reads current state, converges it, and can be run any number of times.
 *
 * What happens after a reconcile, in this order (controller-runtime's `reconcileHandler`):
 * 1. it threw a `TerminalError` → logged, counted, never retried;
 * 2. it threw anything else → retried with per-key exponential backoff;
 * 3. it returned `requeueAfter > 0` → backoff reset, reconciled again after that many ms;
 * 4. otherwise → success, backoff reset.
 */
import { namespacedNameOf } from '../meta/index.js';
import type { KubeObject, Logger, NamespacedName } from '../meta/index.js';

/** Which object to reconcile: `namespace` is absent (or empty) for cluster-scoped kinds. */
export type Request = NamespacedName;

/** The request that reconciles `obj` (for map functions: `list(…).map(requestFor)`). */
export function requestFor(obj: Pick<KubeObject, 'metadata'>): Request {
  return namespacedNameOf(obj);
}

/** What a reconciler asks for next: nothing, or another reconcile after a delay. */
export interface Result {
  /** Reconcile again after this many milliseconds (and reset the key's backoff). Ignored after an error. */
  requeueAfter?: number;
  /**
   * Priority of the requeue (higher is more urgent) when a priority queue is used; by default the
   * priority the request was dequeued with.
   */
  priority?: number;
}

/** What a reconciler gets besides the request: the client, a logger, and a signal that aborts when the controller stops. */
export interface ReconcileContext<C> {
  /** The host's client (for a manager: cached reads, direct writes). */
  readonly client: C;
  /** Carries `controller`, `namespace`, `name` and `reconcileID` on every line. */
  readonly log: Logger;
  /**
   * Aborted when the controller stops or the reconcile timeout elapses. The controller still waits for
   * the reconcile to settle; honouring the signal only makes it settle sooner.
   */
  readonly signal: AbortSignal;
  /** A UUID unique to this reconcile, also in every log line. */
  readonly reconcileID: string;
}

/**
 * Reconciles one object. Resolve (with a `Result` or nothing) when converged; throw to retry with
 * backoff; throw a `TerminalError` to stop retrying. Never called twice at once for the same request.
 */
export type Reconciler<C = unknown> = (req: Request, ctx: ReconcileContext<C>) => Promise<Result | void>;
