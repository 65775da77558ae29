/**
 * Event handlers: turn events into reconcile requests on the controller's queue, controller-runtime's
 * `handler` package. Handlers are synchronous and only enqueue; identical requests collapse in the
 * queue, so a handler may enqueue freely.
 *
 * Priority (when the controller's queue is a priority queue): a create from the initial list and an
 * update whose resourceVersion did not change (a resync or an unchanged relist) are enqueued at
 * `LOW_PRIORITY`, so that a restart or a resync does not starve real changes. Deletes and generic
 * events are never lowered. With a plain rate-limiting queue the priority is ignored.
 */
import type { KubeObject } from '../meta/index.js';
import { queueWithAdds, type AddOpts, type PriorityInterface } from '../workqueue/index.js';
import type { CreateEvent, DeleteEvent, GenericEvent, UpdateEvent } from './events.js';
import type { Request } from './reconciler.js';

/** The queue handlers enqueue into: the controller's queue, typed for requests. @extension */
export type RequestQueue = PriorityInterface<Request>;

/** Turns events of one kind into reconcile requests on the controller's queue. @extension */
export interface EventHandler<T extends KubeObject = KubeObject> {
  create(e: CreateEvent<T>, queue: RequestQueue): void;
  update(e: UpdateEvent<T>, queue: RequestQueue): void;
  delete(e: DeleteEvent<T>, queue: RequestQueue): void;
  generic(e: GenericEvent<T>, queue: RequestQueue): void;
}

/** controller-runtime's `handler.LowPriority`. @extension */
export const LOW_PRIORITY = -100;

/** The priority controller-runtime gives a create event: low for the initial list, else none. */
export function createPriority(e: CreateEvent<KubeObject>): number | undefined {
  return e.isInInitialList ? LOW_PRIORITY : undefined;
}

/** The priority controller-runtime gives an update event: low when the resourceVersion did not change. */
export function updatePriority(e: UpdateEvent<KubeObject>): number | undefined {
  return e.objectOld.metadata.resourceVersion === e.objectNew.metadata.resourceVersion ? LOW_PRIORITY : undefined;
}

/** Enqueues `requests` (already de-duplicated or not: the queue collapses them) with `priority`. */
export function enqueueAll(queue: RequestQueue, requests: Iterable<Request>, priority: number | undefined): void {
  for (const req of requests) {
    if (priority === undefined) queue.add(req);
    else queue.addWithOpts({ priority }, req);
  }
}

/** One optional function per event type, from which `funcs` makes an `EventHandler`. */
export interface HandlerFuncs<T extends KubeObject = KubeObject> {
  create?(e: CreateEvent<T>, queue: RequestQueue): void;
  update?(e: UpdateEvent<T>, queue: RequestQueue): void;
  delete?(e: DeleteEvent<T>, queue: RequestQueue): void;
  generic?(e: GenericEvent<T>, queue: RequestQueue): void;
}

/**
 * A handler from plain functions; a missing function ignores its events. Like controller-runtime's
 * `Funcs`, `create` and `update` get a queue whose adds default to the event's priority (low for the
 * initial list and for unchanged resourceVersions) unless the function passes a priority itself.
 */
export function funcs<T extends KubeObject = KubeObject>(fns: HandlerFuncs<T>): EventHandler<T> {
  return {
    create: (e, queue) => fns.create?.(e, withDefaultPriority(queue, createPriority(e))),
    update: (e, queue) => fns.update?.(e, withDefaultPriority(queue, updatePriority(e))),
    delete: (e, queue) => fns.delete?.(e, queue),
    generic: (e, queue) => fns.generic?.(e, queue),
  };
}

/** `queue`, except that adds without a priority get `priority` (controller-runtime's `workqueueWithDefaultPriority`). */
function withDefaultPriority(queue: RequestQueue, priority: number | undefined): RequestQueue {
  if (priority === undefined) return queue;
  const opts = (o: AddOpts): AddOpts => (o.priority === undefined ? { ...o, priority } : o);
  return queueWithAdds(queue, {
    add: (item) => queue.addWithOpts({ priority }, item),
    addAfter: (item, delayMs) => queue.addWithOpts({ after: delayMs, priority }, item),
    addRateLimited: (item) => queue.addWithOpts({ rateLimited: true, priority }, item),
    addWithOpts: (o, ...items) => queue.addWithOpts(opts(o), ...items),
  });
}
