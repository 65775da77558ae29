/**
 * One engaged member cluster of a fleet: its name and labels, and a manager of its own (a cache and
 * a split client) that runs from engagement until disengagement. Requests of multi-cluster
 * controllers carry the cluster's name, so one queue serves every cluster.
 *
 * Invariant: a cluster's `signal` aborts exactly when it is disengaged (or the fleet stops); after
 * that its manager is stopping and nothing may be started on it.
 */
import type { NamespacedName } from '../meta/index.js';
import type { Manager, ManagerClient } from '../manager/index.js';

/** A member cluster while it is engaged. */
export interface Cluster {
  /** Unique in its fleet; the provider's name for it (a Secret's name, a file's, a namespace's). */
  readonly name: string;
  /** Labels the provider gave it (e.g. the Secret's labels), for selecting clusters. */
  readonly labels: Readonly<Record<string, string>>;
  /** The cluster's own manager: its cache (`getInformer`, `indexField`) and its client. */
  readonly manager: Manager;
  /** Cached reads, direct writes, against this cluster. */
  readonly client: ManagerClient;
  /** Aborts when the cluster is disengaged or the fleet stops. */
  readonly signal: AbortSignal;
}

/** A reconcile request of a multi-cluster controller: which object, in which cluster. */
export interface ClusterRequest extends NamespacedName {
  readonly cluster: string;
}
