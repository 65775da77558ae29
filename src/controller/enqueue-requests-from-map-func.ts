/**
 * `enqueueRequestsFromMapFunc`: maps an object of a watched kind to the requests it affects (e.g. a
 * Secret to every primary that references it, through a cache index). On update the requests of the
 * old and the new object are both enqueued, so a reference that moved reconciles both sides; the
 * union is de-duplicated. The map function is synchronous: it reads the cache, never the network.
 */
import { keyOf } from '../meta/index.js';
import type { KubeObject } from '../meta/index.js';
import { createPriority, enqueueAll, updatePriority } from './handler.js';
import type { EventHandler } from './handler.js';
import type { Request } from './reconciler.js';

/** Maps an object to the requests it affects. */
export type MapFunc<T extends KubeObject = KubeObject> = (obj: T) => Iterable<Request>;

/** The handler that enqueues whatever requests a `MapFunc` returns for the changed object. */
export function enqueueRequestsFromMapFunc<T extends KubeObject = KubeObject>(fn: MapFunc<T>): EventHandler<T> {
  return {
    create: (e, queue) => enqueueAll(queue, fn(e.object), createPriority(e)),
    update: (e, queue) => enqueueAll(queue, union(fn(e.objectOld), fn(e.objectNew)), updatePriority(e)),
    delete: (e, queue) => enqueueAll(queue, fn(e.object), undefined),
    generic: (e, queue) => enqueueAll(queue, fn(e.object), undefined),
  };
}

/** The requests of both lists, each once, in first-seen order. */
export function union(...lists: Iterable<Request>[]): Request[] {
  const byKey = new Map<string, Request>();
  for (const list of lists) for (const req of list) if (!byKey.has(keyOf(req))) byKey.set(keyOf(req), req);
  return [...byKey.values()];
}
