/**
 * Owner references: who owns an object and who controls it, as apimachinery's `metav1.GetControllerOf`
 * / `IsControlledBy` and controller-runtime's `controllerutil`. An object has at most one controller
 * reference (`controller: true`) among its owners; identity across owners is the UID, except where
 * controller-runtime compares by group, kind and name (`hasOwnerReference`), because a reference
 * written before the owner was recreated keeps its old UID.
 */
import { InvalidOptionError } from './errors.js';
import { parseGroupVersion } from './gvk.js';
import type { KubeObject, OwnerReference } from './object.js';

type WithOwners = { readonly metadata?: { readonly ownerReferences?: readonly OwnerReference[] } };
type Owner = Pick<KubeObject, 'apiVersion' | 'kind'> & { readonly metadata: { readonly name?: string; readonly uid?: string } };

/** The owner reference marked `controller: true`, or undefined. */
export function getControllerOf(obj: WithOwners): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** True when `obj` has a controller reference whose UID is `owner`'s (a UID-less owner controls nothing). */
export function isControlledBy(obj: WithOwners, owner: { readonly metadata: { readonly uid?: string } }): boolean {
  const uid = owner.metadata.uid;
  return uid !== undefined && uid !== '' && getControllerOf(obj)?.uid === uid;
}

/** True when `obj` has a controller reference at all. */
export function hasControllerReference(obj: WithOwners): boolean {
  return getControllerOf(obj) !== undefined;
}

/** Every owner reference of `obj` with this UID (usually zero or one). */
export function ownerReferencesByUid(obj: WithOwners, uid: string): OwnerReference[] {
  return (obj.metadata?.ownerReferences ?? []).filter((r) => r.uid === uid);
}

const groupOf = (apiVersion: string | undefined): string => (apiVersion ? parseGroupVersion(apiVersion).group : '');

/**
 * True when `obj` has an owner reference to `owner` in controller-runtime's sense: same group (from
 * `apiVersion`), kind and name. The version and the UID are ignored.
 */
export function hasOwnerReference(obj: WithOwners, owner: Owner): boolean {
  const group = groupOf(owner.apiVersion);
  return (obj.metadata?.ownerReferences ?? []).some(
    (r) => r.kind === owner.kind && r.name === owner.metadata.name && groupOf(r.apiVersion) === group,
  );
}

/**
 * The controller reference `owner` puts on the objects it creates: apiVersion, kind, name, uid,
 * `controller: true` and `blockOwnerDeletion` (default true, so foreground deletion waits for them).
 * Throws `InvalidOptionError` if the owner lacks any of the four identifying fields.
 */
export function newControllerRef(owner: Owner, options: { blockOwnerDeletion?: boolean } = {}): OwnerReference {
  const { apiVersion, kind } = owner;
  const { name, uid } = owner.metadata;
  if (!apiVersion) throw new InvalidOptionError('owner.apiVersion', 'must not be empty');
  if (!kind) throw new InvalidOptionError('owner.kind', 'must not be empty');
  if (!name) throw new InvalidOptionError('owner.metadata.name', 'must not be empty');
  if (!uid) throw new InvalidOptionError('owner.metadata.uid', 'must not be empty (create the owner before referencing it)');
  return { apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: options.blockOwnerDeletion ?? true };
}
