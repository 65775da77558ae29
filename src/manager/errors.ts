/**
 * The manager layer's errors, each with its code from the catalogue in `src/meta/errors.ts`.
 * Callers branch on `code`, never on the message.
 */
import { ConvergeError, type OwnerReference } from '../meta/index.js';

/** `setControllerReference` found a controller reference to a different owner already in place. */
export class AlreadyOwnedError extends ConvergeError {
  readonly code = 'CONVERGE_ALREADY_OWNED';
  override readonly name = 'AlreadyOwnedError';
  constructor(readonly object: { namespace?: string; name: string }, readonly owner: OwnerReference) {
    const key = object.namespace ? `${object.namespace}/${object.name}` : object.name;
    super(`Object ${key} is already owned by another ${owner.kind} controller ${owner.name}`);
  }
}

/**
 * A cached read found no synced informer for the kind. The manager starts the informer on first use;
 * a reconciler that throws this is retried with backoff until the kind has synced. Declare every kind
 * a controller reads with `for`/`owns`/`watches` (or `mgr.getInformer`) to avoid the first retry.
 */
export class CacheNotSyncedError extends ConvergeError {
  readonly code = 'CONVERGE_CACHE_NOT_SYNCED';
  override readonly name = 'CacheNotSyncedError';
  constructor(readonly kind: string) {
    super(`the cache for ${kind} has not synced yet (its informer starts on first use; the read is retried)`);
  }
}

/** The manager could not renew its leader lease before the renew deadline and stopped its controllers. */
export class LeaderElectionLostError extends ConvergeError {
  readonly code = 'CONVERGE_LEADER_ELECTION_LOST';
  override readonly name = 'LeaderElectionLostError';
  constructor(readonly lock: string) {
    super(`leader election lost (lease ${lock})`);
  }
}

/** Runnables were still running when the graceful shutdown timeout passed. */
export class ShutdownTimeoutError extends ConvergeError {
  readonly code = 'CONVERGE_SHUTDOWN_TIMEOUT';
  override readonly name = 'ShutdownTimeoutError';
  constructor(readonly timeoutMs: number, readonly pending: readonly string[]) {
    super(`failed waiting for all runnables to end within grace period of ${timeoutMs} ms (still running: ${pending.join(', ')})`);
  }
}
