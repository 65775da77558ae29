/**
 * `enqueueRequestForOwner`: the handler of owned children (`owns`). An event on a child enqueues its
 * owner of the given kind, found in `metadata.ownerReferences`. A reference matches on group and kind
 * (the version is ignored, so an owner served at several versions still matches); by default only the
 * controller reference (`controller: true`) counts. The request's namespace is the child's, or none
 * when the owner kind is cluster-scoped. On update the owners of the old and the new child are both
 * enqueued, so a change of owner reconciles both.
 */
import { parseGroupVersion } from '../meta/index.js';
import type { KubeObject, OwnerReference, ResourceDescriptor } from '../meta/index.js';
import { createPriority, enqueueAll, updatePriority } from './handler.js';
import type { EventHandler } from './handler.js';
import type { Request } from './reconciler.js';
import { union } from './enqueue-requests-from-map-func.js';

/** Options of `enqueueRequestForOwner`: whether only the controller owner, or every owner of the kind, is enqueued. */
export interface EnqueueRequestForOwnerOptions {
  /** Only the reference with `controller: true` counts (controller-runtime's `OnlyControllerOwner`). Default true. */
  onlyController?: boolean;
}

/** The handler that enqueues an object's owner of a given kind, for the children a controller owns. */
export function enqueueRequestForOwner<T extends KubeObject = KubeObject>(
  owner: ResourceDescriptor<KubeObject>,
  options: EnqueueRequestForOwnerOptions = {},
): EventHandler<T> {
  const onlyController = options.onlyController ?? true;
  const ownersOf = (obj: T): Request[] => {
    const out: Request[] = [];
    for (const ref of obj.metadata.ownerReferences ?? []) {
      if (!refersTo(ref, owner) || (onlyController && ref.controller !== true)) continue;
      const ns = owner.namespaced ? obj.metadata.namespace : undefined;
      out.push(ns ? { namespace: ns, name: ref.name } : { name: ref.name });
    }
    return out;
  };
  return {
    create: (e, queue) => enqueueAll(queue, union(ownersOf(e.object)), createPriority(e)),
    update: (e, queue) => enqueueAll(queue, union(ownersOf(e.objectOld), ownersOf(e.objectNew)), updatePriority(e)),
    delete: (e, queue) => enqueueAll(queue, union(ownersOf(e.object)), undefined),
    generic: (e, queue) => enqueueAll(queue, union(ownersOf(e.object)), undefined),
  };
}

/**
 * Group and kind equal. An unparseable apiVersion on a reference of the owner's kind throws, which
 * stops handling this event; the source logs it (as controller-runtime does).
 */
function refersTo(ref: OwnerReference, owner: ResourceDescriptor<KubeObject>): boolean {
  return ref.kind === owner.kind && parseGroupVersion(ref.apiVersion).group === owner.group;
}
