/**
 * A view of a multi-cluster controller's queue for one cluster's sources: every request a handler adds
 * gets the cluster's name, so the unchanged single-cluster handlers (`enqueueRequestForObject`,
 * `enqueueRequestForOwner`, map functions) enqueue `{ cluster, namespace, name }`. Taking work out of
 * the queue is the controller's, never a source's: those methods are refused.
 */
import type { NamespacedName } from '../meta/index.js';
import type { RequestQueue } from '../controller/index.js';
import type { AddOpts } from '../workqueue/index.js';
import type { ClusterRequest } from './cluster.js';

/** `queue` as seen by the sources of `cluster`: requests are stamped with the cluster's name. */
export function clusterQueue(queue: RequestQueue, cluster: string): RequestQueue {
  const stamp = (req: NamespacedName): ClusterRequest =>
    req.namespace ? { cluster, namespace: req.namespace, name: req.name } : { cluster, name: req.name };
  const notForSources = (method: string) => (): never => {
    throw new Error(`${method}() is the controller's: a source only adds to its queue`);
  };
  return {
    add: (req) => queue.add(stamp(req)),
    addAfter: (req, delayMs) => queue.addAfter(stamp(req), delayMs),
    addRateLimited: (req) => queue.addRateLimited(stamp(req)),
    addWithOpts: (opts: AddOpts, ...reqs) => queue.addWithOpts(opts, ...reqs.map(stamp)),
    forget: (req) => queue.forget(stamp(req)),
    numRequeues: (req) => queue.numRequeues(stamp(req)),
    len: () => queue.len(),
    shuttingDown: () => queue.shuttingDown(),
    get: notForSources('get'),
    getWithPriority: notForSources('getWithPriority'),
    done: notForSources('done'),
    shutDown: notForSources('shutDown'),
    shutDownWithDrain: notForSources('shutDownWithDrain'),
  };
}
