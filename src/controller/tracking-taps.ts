/**
 * The taps that feed a controller's `ReconcileTracker` from its queue without changing the queue:
 * the queue the sources enqueue into (every add is noted, then passed on unchanged), and the rate
 * limiter (every retry delay it decides is noted, then returned unchanged). Invariant: a tap only
 * observes; the queue and the limiter behave exactly as they would without it.
 */
import { queueWithAdds, type RateLimiter } from '../workqueue/index.js';
import type { RequestQueue } from './handler.js';
import type { Request } from './reconciler.js';
import type { ReconcileTracker } from './reconcile-tracker.js';

/**
 * `queue` as the sources see it: adds are noted in `tracker` after the queue took them. The delay of
 * a rate-limited add is noted by the limiter's tap, which alone knows it; an `after` given with it
 * is noted too, since the queue keeps the shorter of the two.
 */
export function tapEnqueues(queue: RequestQueue, tracker: ReconcileTracker): RequestQueue {
  // Adds made once the queue is shutting down are dropped by it, so they are not noted either.
  const note = (item: Request, afterMs: number): void => {
    if (!queue.shuttingDown()) tracker.enqueued(item, afterMs);
  };
  return queueWithAdds(queue, {
    add: (item) => {
      queue.add(item);
      note(item, 0);
    },
    addAfter: (item, delayMs) => {
      queue.addAfter(item, delayMs);
      note(item, delayMs);
    },
    addRateLimited: (item) => queue.addRateLimited(item),
    addWithOpts: (opts, ...items) => {
      queue.addWithOpts(opts, ...items);
      const after = opts.after ?? 0;
      if (opts.rateLimited === true && after <= 0) return;
      for (const item of items) note(item, after);
    },
  });
}

/** `limiter`, with every delay it decides noted in `tracker` as the key's next attempt. */
export function tapRetries(limiter: RateLimiter<Request>, tracker: ReconcileTracker): RateLimiter<Request> {
  return {
    when: (item) => {
      const delayMs = limiter.when(item);
      tracker.retryScheduled(item, delayMs);
      return delayMs;
    },
    forget: (item) => limiter.forget(item),
    numRequeues: (item) => limiter.numRequeues(item),
  };
}
