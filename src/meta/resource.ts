/**
 * Resource descriptors: one value that names a kind completely (group, version, kind, plural, scope)
 * and carries the TypeScript type of its objects, so list, watch, cache and controller can never
 * disagree about what they handle. Built-in kinds are predefined here, typed with `kubernetes-types`.
 * Invariant: a descriptor is frozen and its `apiVersion` is derived from group and version.
 */
import type { ConfigMap, Secret, Service, ServiceAccount, Pod, Namespace, Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1.js';
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import type { Event as EventsV1Event } from 'kubernetes-types/events/v1.js';
import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import { InvalidOptionError } from './errors.js';
import { formatGroupVersion, type GroupVersionKind, type GroupVersionResource } from './gvk.js';
import type { KubeObject, Resource } from './object.js';

/** Everything needed to address a kind over REST. `T` is the object type (phantom: types only). */
export interface ResourceDescriptor<T extends KubeObject = KubeObject> {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Lower-case plural, the URL segment (`deployments`). */
  readonly plural: string;
  readonly namespaced: boolean;
  /** `v1` or `group/version`. */
  readonly apiVersion: string;
  /** Phantom field carrying `T`; never set at run time. */
  readonly __type?: T;
}

/** What `defineResource` needs to know of a kind: its group, version, kind, URL plural and scope. */
export interface ResourceDefinition {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

/** Makes a frozen descriptor for any kind. For custom resources, pass the spec and status types. */
export function defineResource<Spec = unknown, St = unknown, T extends KubeObject = Resource<Spec, St>>(
  def: ResourceDefinition,
): ResourceDescriptor<T> {
  for (const f of ['version', 'kind', 'plural'] as const) {
    if (!def[f]) throw new InvalidOptionError(`resource.${f}`, 'must not be empty');
  }
  if (def.plural !== def.plural.toLowerCase()) throw new InvalidOptionError('resource.plural', `must be lower case, got ${def.plural}`);
  return Object.freeze({ ...def, apiVersion: formatGroupVersion(def) });
}

/** The group, version and kind a descriptor describes, as a fresh object. */
export const gvkOfResource = (r: ResourceDescriptor<KubeObject>): GroupVersionKind => ({
  group: r.group,
  version: r.version,
  kind: r.kind,
});
/** The group, version and resource (its plural) a descriptor describes, as a fresh object. */
export const gvrOfResource = (r: ResourceDescriptor<KubeObject>): GroupVersionResource => ({
  group: r.group,
  version: r.version,
  resource: r.plural,
});

/** Helper type: the object type a descriptor carries. */
export type ObjectOf<R> = R extends ResourceDescriptor<infer T> ? T : never;

type K<T> = T & KubeObject & { metadata: NonNullable<KubeObject['metadata']> };
const builtin = <T>(group: string, version: string, kind: string, plural: string, namespaced: boolean) =>
  defineResource<unknown, unknown, K<T>>({ group, version, kind, plural, namespaced });

export const NamespaceResource = builtin<Namespace>('', 'v1', 'Namespace', 'namespaces', false);
export const ConfigMapResource = builtin<ConfigMap>('', 'v1', 'ConfigMap', 'configmaps', true);
export const SecretResource = builtin<Secret>('', 'v1', 'Secret', 'secrets', true);
export const ServiceResource = builtin<Service>('', 'v1', 'Service', 'services', true);
/** Descriptor of core `v1` ServiceAccounts (namespaced). */
export const ServiceAccountResource = builtin<ServiceAccount>('', 'v1', 'ServiceAccount', 'serviceaccounts', true);
/** Descriptor of core `v1` Pods (namespaced). */
export const PodResource = builtin<Pod>('', 'v1', 'Pod', 'pods', true);
/** Descriptor of core `v1` Events (namespaced); `EventResource` is the newer `events.k8s.io/v1` API over the same objects. */
export const CoreEventResource = builtin<CoreEvent>('', 'v1', 'Event', 'events', true);
export const DeploymentResource = builtin<Deployment>('apps', 'v1', 'Deployment', 'deployments', true);
/** Descriptor of `apps/v1` ReplicaSets (namespaced). */
export const ReplicaSetResource = builtin<ReplicaSet>('apps', 'v1', 'ReplicaSet', 'replicasets', true);
export const LeaseResource = builtin<Lease>('coordination.k8s.io', 'v1', 'Lease', 'leases', true);
export const EventResource = builtin<EventsV1Event>('events.k8s.io', 'v1', 'Event', 'events', true);
/** Descriptor of `apiextensions.k8s.io/v1` CustomResourceDefinitions (cluster-scoped). */
export const CustomResourceDefinitionResource = builtin<CustomResourceDefinition>(
  'apiextensions.k8s.io',
  'v1',
  'CustomResourceDefinition',
  'customresourcedefinitions',
  false,
);

const RBAC = 'rbac.authorization.k8s.io';
/** Descriptor of `rbac.authorization.k8s.io/v1` Roles (namespaced). */
export const RoleResource = builtin<Role>(RBAC, 'v1', 'Role', 'roles', true);
/** Descriptor of `rbac.authorization.k8s.io/v1` RoleBindings (namespaced). */
export const RoleBindingResource = builtin<RoleBinding>(RBAC, 'v1', 'RoleBinding', 'rolebindings', true);
/** Descriptor of `rbac.authorization.k8s.io/v1` ClusterRoles (cluster-scoped). */
export const ClusterRoleResource = builtin<ClusterRole>(RBAC, 'v1', 'ClusterRole', 'clusterroles', false);
/** Descriptor of `rbac.authorization.k8s.io/v1` ClusterRoleBindings (cluster-scoped). */
export const ClusterRoleBindingResource = builtin<ClusterRoleBinding>(RBAC, 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false);

/** The predefined built-in descriptors, for REST mappers that want a static starting point. */
export const builtinResources: readonly ResourceDescriptor<KubeObject>[] = Object.freeze([
  NamespaceResource,
  ConfigMapResource,
  SecretResource,
  ServiceResource,
  ServiceAccountResource,
  PodResource,
  CoreEventResource,
  DeploymentResource,
  ReplicaSetResource,
  LeaseResource,
  EventResource,
  CustomResourceDefinitionResource,
  RoleResource,
  RoleBindingResource,
  ClusterRoleResource,
  ClusterRoleBindingResource,
]);
