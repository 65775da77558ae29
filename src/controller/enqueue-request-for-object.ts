/**
 * `enqueueRequestForObject`: the handler of a controller's primary (`for`) kind. Every event enqueues
 * the object's own `namespace/name`; updates enqueue the new object's. Initial-list creates and
 * unchanged-resourceVersion updates go in at low priority.
 */
import { namespacedNameOf } from '../meta/index.js';
import type { KubeObject } from '../meta/index.js';
import { createPriority, enqueueAll, updatePriority } from './handler.js';
import type { EventHandler } from './handler.js';

/** The handler that enqueues the object's own namespace and name, for the kind a controller reconciles. */
export function enqueueRequestForObject<T extends KubeObject = KubeObject>(): EventHandler<T> {
  return {
    create: (e, queue) => enqueueAll(queue, [namespacedNameOf(e.object)], createPriority(e)),
    update: (e, queue) => enqueueAll(queue, [namespacedNameOf(e.objectNew)], updatePriority(e)),
    delete: (e, queue) => enqueueAll(queue, [namespacedNameOf(e.object)], undefined),
    generic: (e, queue) => enqueueAll(queue, [namespacedNameOf(e.object)], undefined),
  };
}
