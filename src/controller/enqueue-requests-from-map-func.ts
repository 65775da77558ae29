/**
 * `enqueueRequestsFromMapFunc`: maps an object of a watched kind to the requests it affects (e.g. a
 * Secret to every primary that references it, through a cache index). On update the requests of the
 * old and the new object are both enqueued, so a reference that moved reconciles both sides; the
 * union is de-duplicated. The map function is synchronous: it reads the cache, never the network.
 *
 * With `delayMs`, the requests are queued that long after the event (the queue's `addAfter`, where a
 * request already waiting keeps its earlier time): a burst of changes to one shared object then costs
 * each affected request one reconcile per `delayMs` instead of one per change.
 */
import { keyOf } from '../meta/index.js';
import { requireDuration } from '../meta/internal.js';
import type { KubeObject } from '../meta/index.js';
import { createPriority, enqueueAll, updatePriority } from './handler.js';
import type { EventHandler, RequestQueue } from './handler.js';
import type { Request } from './reconciler.js';

/** Maps an object to the requests it affects. */
export type MapFunc<T extends KubeObject = KubeObject> = (obj: T) => Iterable<Request>;

/** Options of `enqueueRequestsFromMapFunc`. */
export interface MapFuncHandlerOptions {
  /**
   * Queue the mapped requests this many milliseconds after the event instead of at once (default 0).
   * Changes that arrive while a request waits join it, so a burst of updates to one ConfigMap that
   * many primaries reference reconciles each of them about once per `delayMs`, not once per update.
   */
  delayMs?: number;
}

/** The handler that enqueues whatever requests a `MapFunc` returns for the changed object. */
export function enqueueRequestsFromMapFunc<T extends KubeObject = KubeObject>(
  fn: MapFunc<T>,
  options: MapFuncHandlerOptions = {},
): EventHandler<T> {
  const delayMs = options.delayMs ?? 0;
  requireDuration('delayMs', delayMs);
  const enqueue =
    delayMs === 0
      ? enqueueAll
      : (queue: RequestQueue, requests: Iterable<Request>, priority: number | undefined): void => {
          for (const req of requests) queue.addWithOpts(priority === undefined ? { after: delayMs } : { after: delayMs, priority }, req);
        };
  return {
    create: (e, queue) => enqueue(queue, fn(e.object), createPriority(e)),
    update: (e, queue) => enqueue(queue, union(fn(e.objectOld), fn(e.objectNew)), updatePriority(e)),
    delete: (e, queue) => enqueue(queue, fn(e.object), undefined),
    generic: (e, queue) => enqueue(queue, fn(e.object), undefined),
  };
}

/** The requests of both lists, each once, in first-seen order. */
export function union(...lists: Iterable<Request>[]): Request[] {
  const byKey = new Map<string, Request>();
  for (const list of lists) for (const req of list) if (!byKey.has(keyOf(req))) byKey.set(keyOf(req), req);
  return [...byKey.values()];
}
