/**
 * The raw controller's event handlers. They do one thing: turn an event into the keys of the WebApps
 * to reconcile and add them to the queue — never reading more state, never acting. Deletes may carry
 * a tombstone (`DeletedFinalStateUnknown`) when the watch missed the object's final state; its key and
 * its last known object are still right. A resync re-delivers an unchanged object as an update with
 * the same resourceVersion: nothing changed, so nothing is enqueued.
 */
import { objectKey, type KubeObject } from 'kube-converge/meta';
import { deletedObject, deletionHandlingKey, type ResourceEventHandler } from 'kube-converge/cache';
import type { QueueInterface } from 'kube-converge/workqueue';

/** For the primary kind: the object's own `namespace/name` (client-go's `DeletionHandlingMetaNamespaceKeyFunc`). */
export function enqueueObjectKey<T extends KubeObject>(queue: Pick<QueueInterface<string>, 'add'>): ResourceEventHandler<T> {
  return {
    onAdd: (obj) => queue.add(objectKey(obj)),
    onUpdate: (oldObj, newObj) => {
      if (oldObj.metadata.resourceVersion !== newObj.metadata.resourceVersion) queue.add(objectKey(newObj));
    },
    onDelete: (obj) => queue.add(deletionHandlingKey(obj)),
  };
}

/** For related kinds: the keys `keysOf` maps the object to (on update, of both versions). */
export function enqueueMappedKeys<T extends KubeObject>(
  queue: Pick<QueueInterface<string>, 'add'>,
  keysOf: (obj: T) => string[],
): ResourceEventHandler<T> {
  const add = (obj: T): void => keysOf(obj).forEach((k) => queue.add(k));
  return {
    onAdd: add,
    onUpdate: (oldObj, newObj) => {
      if (oldObj.metadata.resourceVersion === newObj.metadata.resourceVersion) return;
      add(oldObj); // a reference that moved must reconcile the side it left too
      add(newObj);
    },
    onDelete: (obj) => add(deletedObject(obj)),
  };
}
