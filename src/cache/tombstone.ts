/**
 * Tombstones: `DeletedFinalStateUnknown` is what a handler's `onDelete` receives for an object that
 * disappeared while the watch was down (found missing by a relist), carrying the last state the cache
 * knew. The deletion-aware key function keys a tombstone by its `key` and anything else by
 * `namespace/name` (client-go's `DeletionHandlingMetaNamespaceKeyFunc`).
 */
import { objectKey, type KubeObject } from '../meta/index.js';
import type { DeletedFinalStateUnknown } from './types.js';

export function deletedFinalStateUnknown<T extends KubeObject>(key: string, obj: T): DeletedFinalStateUnknown<T> {
  return Object.freeze({ key, obj, deletedFinalStateUnknown: true as const });
}

/** True when a delete handler was given a tombstone rather than the deleted object itself. */
export function isDeletedFinalStateUnknown<T extends KubeObject>(v: T | DeletedFinalStateUnknown<T>): v is DeletedFinalStateUnknown<T> {
  return (v as Partial<DeletedFinalStateUnknown<T>>).deletedFinalStateUnknown === true;
}

/** The cache key of an object or a tombstone. Throws `InvalidKeyError` for an object without a name. */
export function deletionHandlingKey<T extends KubeObject>(v: T | DeletedFinalStateUnknown<T>): string {
  return isDeletedFinalStateUnknown(v) ? v.key : objectKey(v);
}

/** The object inside a tombstone, or the object itself: what a delete handler usually wants. */
export function deletedObject<T extends KubeObject>(v: T | DeletedFinalStateUnknown<T>): T {
  return isDeletedFinalStateUnknown(v) ? v.obj : v;
}
