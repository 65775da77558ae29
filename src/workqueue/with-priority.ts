/**
 * withPriority: lets a client-go style queue stand where a priority queue is expected, as
 * controller-runtime does when its priority queue is turned off. Invariant: the wrapped queue's
 * semantics are unchanged; priorities are accepted and dropped, and every item comes out with
 * priority 0.
 */
import type { AddOpts, GetWithPriorityResult, PriorityInterface, RateLimitingInterface } from './interfaces.js';

/**
 * Wraps `queue` so that `addWithOpts` maps to `addRateLimited` (when `rateLimited`), else to
 * `addAfter` (when `after > 0`), else to `add`; and `getWithPriority` reports priority 0.
 * @extension
 */
export function withPriority<T>(queue: RateLimitingInterface<T>): PriorityInterface<T> {
  return {
    add: (item) => queue.add(item),
    addAfter: (item, delayMs) => queue.addAfter(item, delayMs),
    addRateLimited: (item) => queue.addRateLimited(item),
    forget: (item) => queue.forget(item),
    numRequeues: (item) => queue.numRequeues(item),
    len: () => queue.len(),
    get: () => queue.get(),
    done: (item) => queue.done(item),
    shutDown: () => queue.shutDown(),
    shutDownWithDrain: () => queue.shutDownWithDrain(),
    shuttingDown: () => queue.shuttingDown(),
    addWithOpts(opts: AddOpts, ...items: T[]): void {
      for (const item of items) {
        if (opts.rateLimited) queue.addRateLimited(item);
        else if ((opts.after ?? 0) > 0) queue.addAfter(item, opts.after!);
        else queue.add(item);
      }
    },
    async getWithPriority(): Promise<GetWithPriorityResult<T>> {
      const r = await queue.get();
      return r.shutdown ? { item: undefined, priority: 0, shutdown: true } : { item: r.item, priority: 0, shutdown: false };
    },
  };
}
