/**
 * The manager cache's errors, each with its code from the catalogue in `src/meta/errors.ts`.
 * Callers branch on `code`, never on the message.
 */
import { ConvergeError } from '../../meta/index.js';

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

/**
 * A cached read in a namespace whose shard this replica does not own: its cache holds none of that
 * namespace's objects, and answering "absent" would tell a reconciler that existing objects are gone.
 * Names the namespace, its shard, and the replica that owns it (`owner` undefined: none now).
 */
export class ShardNotOwnedError extends ConvergeError {
  readonly code = 'CONVERGE_SHARD_NOT_OWNED';
  override readonly name = 'ShardNotOwnedError';
  constructor(
    readonly kind: string,
    readonly namespace: string,
    readonly shard: number,
    readonly owner: string | undefined,
  ) {
    super(
      `${kind} in namespace ${JSON.stringify(namespace)}: its shard ${shard} is ${owner === undefined ? 'owned by no replica now' : `owned by replica ${JSON.stringify(owner)}`}, not this one, so this cache does not hold it; read it with apiReader`,
    );
  }
}

/**
 * An informer's list or watch was refused with 403: the manager's identity lacks that verb on the
 * resource, so the cache can never fill (or stay current) until RBAC grants it. Named so readiness
 * and logs say which permission is missing instead of showing a backoff loop.
 */
export class InformerForbiddenError extends ConvergeError {
  readonly code = 'CONVERGE_INFORMER_FORBIDDEN';
  override readonly name = 'InformerForbiddenError';
  constructor(
    readonly kind: string,
    /** `configmaps`, `deployments.apps`: the resource as RBAC names it. */
    readonly resource: string,
    readonly verb: 'list' | 'watch',
    /** Where the informer lists ('' = all namespaces). */
    readonly namespace: string,
    /** The server's 403 message. */
    readonly serverMessage: string,
  ) {
    super(
      `the ${kind} informer may not ${verb} ${resource}${namespace ? ` in namespace ${namespace}` : ' across all namespaces'}: ${serverMessage}`,
    );
  }
}
