/**
 * A request queue whose four add methods are replaced and whose other methods go straight to the
 * queue underneath: the shape of every queue wrapper a controller needs (default priorities for
 * handlers, enqueue taps for the reconcile tracker). Invariant: only adds differ; get/done/forget,
 * lengths and shutdown are the wrapped queue's own.
 */
import type { RequestQueue } from './handler.js';

export type QueueAdds = Pick<RequestQueue, 'add' | 'addAfter' | 'addRateLimited' | 'addWithOpts'>;

export function queueWithAdds(queue: RequestQueue, adds: QueueAdds): RequestQueue {
  return {
    ...adds,
    forget: (item) => queue.forget(item),
    numRequeues: (item) => queue.numRequeues(item),
    len: () => queue.len(),
    get: () => queue.get(),
    getWithPriority: () => queue.getWithPriority(),
    done: (item) => queue.done(item),
    shutDown: () => queue.shutDown(),
    shutDownWithDrain: () => queue.shutDownWithDrain(),
    shuttingDown: () => queue.shuttingDown(),
  };
}
