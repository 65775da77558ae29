/**
 * Events: what sources hand to predicates and handlers, controller-runtime's `event` package. An event
 * carries objects, never a verdict on what to do: handlers turn events into reconcile requests, and a
 * reconciler never sees the event that woke it (it reads current state instead). Objects come from the
 * cache and are deep-frozen.
 */
import type { KubeObject } from '../meta/index.js';

/** An object appeared: it was created, or it was in the cache's initial list. */
export interface CreateEvent<T extends KubeObject = KubeObject> {
  readonly object: T;
  /** True when the object came from the informer's initial list (or a handler's replay of the cache). */
  readonly isInInitialList: boolean;
}

/**
 * An object changed. `objectOld.metadata.resourceVersion === objectNew.metadata.resourceVersion` means
 * it did not really change: a periodic resync or an unchanged relist.
 */
export interface UpdateEvent<T extends KubeObject = KubeObject> {
  readonly objectOld: T;
  readonly objectNew: T;
}

/** An object was deleted. */
export interface DeleteEvent<T extends KubeObject = KubeObject> {
  /** The last state known; when `deleteStateUnknown`, possibly stale (the delete was missed while the watch was down). */
  readonly object: T;
  readonly deleteStateUnknown: boolean;
}

/** An event from outside the cluster (a channel source), or any other trigger that is not a change. */
export interface GenericEvent<T extends KubeObject = KubeObject> {
  readonly object: T;
}
