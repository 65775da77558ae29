/**
 * queueWithAdds: a priority queue whose four add methods are replaced and whose other methods go
 * straight to the queue underneath, the shape of every wrapper that only changes how items go in
 * (default priorities for event handlers, enqueue taps that observe). Invariant: only adds differ;
 * get/done/forget, lengths and shutdown are the wrapped queue's own.
 */
import type { PriorityInterface } from './interfaces.js';

/** The four ways of adding to a priority queue, which `queueWithAdds` lets a caller replace. @extension */
export type QueueAdds<T> = Pick<PriorityInterface<T>, 'add' | 'addAfter' | 'addRateLimited' | 'addWithOpts'>;

/** @extension */
export function queueWithAdds<T>(queue: PriorityInterface<T>, adds: QueueAdds<T>): PriorityInterface<T> {
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
