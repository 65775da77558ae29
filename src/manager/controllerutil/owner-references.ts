/**
 * controllerutil's owner-reference setters: `setControllerReference` marks the one controller of an
 * object, `setOwnerReference` adds a plain owner; `removeOwnerReference` and `removeControllerReference`
 * undo them. Both enforce the API server's garbage-collector rules
 * up front: a namespaced owner may only own objects in its own namespace (a cluster-scoped owner may
 * own anything). References are matched as controller-runtime does, by group, kind and name (version
 * and UID ignored), and upserted in place. Invariant: an object never gets a second controller
 * reference — `AlreadyOwnedError` instead.
 */
import {
  InvalidOptionError,
  getControllerOf,
  newControllerRef,
  parseGroupVersion,
  type KubeObject,
  type OwnerReference,
  type ResourceDescriptor,
} from '../../meta/index.js';
import { AlreadyOwnedError } from './errors.js';

/** Options of `setOwnerReference`: the owner's resource, for an owner object that carries no apiVersion and kind. */
export interface OwnerReferenceOptions {
  /**
   * The owner's kind, when the owner object lacks `apiVersion`/`kind` (objects in list responses, and
   * so in the cache, may carry none).
   */
  ownerResource?: ResourceDescriptor;
}

/** Options of `setControllerReference`: the owner-reference options, and whether the reference blocks the owner's deletion. */
export interface ControllerReferenceOptions extends OwnerReferenceOptions {
  /** Default true: foreground deletion of the owner waits for this object. */
  blockOwnerDeletion?: boolean;
}

type Owner = Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>;

function typed(owner: Owner, options: OwnerReferenceOptions): Owner {
  const r = options.ownerResource;
  return r ? { apiVersion: r.apiVersion, kind: r.kind, metadata: owner.metadata } : owner;
}

function validateOwner(owner: Owner, obj: KubeObject): void {
  const ownerNs = owner.metadata.namespace ?? '';
  if (ownerNs === '') return;
  const objNs = obj.metadata.namespace ?? '';
  if (objNs === '') {
    throw new InvalidOptionError('owner', `cluster-scoped resource must not have a namespace-scoped owner, owner's namespace ${ownerNs}`);
  }
  if (objNs !== ownerNs) {
    throw new InvalidOptionError(
      'owner',
      `cross-namespace owner references are disallowed, owner's namespace ${ownerNs}, obj's namespace ${objNs}`,
    );
  }
}

const groupOf = (apiVersion: string): string => parseGroupVersion(apiVersion).group;
const sameObject = (a: OwnerReference, b: OwnerReference): boolean =>
  a.kind === b.kind && a.name === b.name && groupOf(a.apiVersion) === groupOf(b.apiVersion);

function upsert(obj: KubeObject, ref: OwnerReference): void {
  const refs = obj.metadata.ownerReferences ?? [];
  const i = refs.findIndex((r) => sameObject(r, ref));
  obj.metadata.ownerReferences = i === -1 ? [...refs, ref] : refs.map((r, j) => (j === i ? ref : r));
}

/**
 * Makes `owner` the controller of `obj` (mutates `obj`; pass a mutable copy, not a cached object).
 * Throws `AlreadyOwnedError` when another object controls `obj`, `InvalidOptionError` on a
 * namespace rule violation or an owner without apiVersion/kind/name/uid.
 */
export function setControllerReference(owner: Owner, obj: KubeObject, options: ControllerReferenceOptions = {}): void {
  const o = typed(owner, options);
  const ref = newControllerRef(o, { blockOwnerDeletion: options.blockOwnerDeletion ?? true });
  validateOwner(o, obj);
  const existing = getControllerOf(obj);
  if (existing && !sameObject(existing, ref)) {
    throw new AlreadyOwnedError({ namespace: obj.metadata.namespace, name: obj.metadata.name ?? '' }, existing);
  }
  upsert(obj, ref);
}

/** Adds `owner` as a plain (non-controller) owner of `obj`, or refreshes its reference. Mutates `obj`. */
export function setOwnerReference(owner: Owner, obj: KubeObject, options: OwnerReferenceOptions = {}): void {
  const o = typed(owner, options);
  const { controller: _c, blockOwnerDeletion: _b, ...ref } = newControllerRef(o);
  validateOwner(o, obj);
  upsert(obj, ref);
}

/** Removes the reference to `owner` from `obj`; throws if there is none. Mutates `obj`. */
export function removeOwnerReference(owner: Owner, obj: KubeObject, options: OwnerReferenceOptions = {}): void {
  const o = typed(owner, options);
  const ref = newControllerRef(o);
  const refs = obj.metadata.ownerReferences ?? [];
  const kept = refs.filter((r) => !sameObject(r, ref));
  if (kept.length === refs.length) {
    throw new InvalidOptionError('owner', `${ref.kind} ${ref.name} is not an owner of ${obj.metadata.name ?? '<unnamed>'}`);
  }
  obj.metadata.ownerReferences = kept;
}

/**
 * Removes `owner`'s controller reference from `obj`; throws if `owner` is not `obj`'s controller
 * (absent, or only a plain owner), as controller-runtime's `RemoveControllerReference`. Mutates `obj`.
 */
export function removeControllerReference(owner: Owner, obj: KubeObject, options: OwnerReferenceOptions = {}): void {
  const ref = newControllerRef(typed(owner, options));
  const controller = getControllerOf(obj);
  if (!controller || !sameObject(controller, ref)) {
    throw new InvalidOptionError('owner', `${ref.kind} ${ref.name} is not the controller of ${obj.metadata.name ?? '<unnamed>'}`);
  }
  removeOwnerReference(owner, obj, options);
}
