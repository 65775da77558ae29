/**
 * The error `explain` gives for a cluster it cannot answer for: a member cluster this replica has not
 * engaged. Its message says why — no fleet here knows the name (listing those engaged), or the
 * cluster's shard is held by another replica (named, to ask instead) — and never comes from a live
 * call: a cluster not engaged here is not one this replica may read for.
 */
import { ConvergeError } from '../../meta/index.js';

/** `explain` was asked about a cluster this replica has not engaged; `cluster` names it. */
export class ClusterNotEngagedError extends ConvergeError {
  readonly code = 'CONVERGE_CLUSTER_NOT_ENGAGED';
  override readonly name = 'ClusterNotEngagedError';
  constructor(
    readonly cluster: string,
    reason: string,
  ) {
    super(`cluster ${JSON.stringify(cluster)}: ${reason}`);
  }
}
