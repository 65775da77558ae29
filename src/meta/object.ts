/**
 * The object model: Kubernetes objects are plain JSON-shaped values, typed with `kubernetes-types`.
 * No model classes and no date conversion: what the API server sent is what you hold. `KubeObject`
 * is the least every object has; `Resource<Spec, Status>` is the shape of a typical custom resource.
 */
import type {
  ObjectMeta,
  Status,
  ListMeta,
  OwnerReference,
  Condition,
  LabelSelector,
  LabelSelectorRequirement,
} from 'kubernetes-types/meta/v1.js';

export type { ObjectMeta, Status, ListMeta, OwnerReference, Condition, LabelSelector, LabelSelectorRequirement };

/** Any Kubernetes object. `metadata` is required in Converge's stores and caches. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** A typical custom resource: `spec` and optional `status`. */
export interface Resource<Spec = unknown, St = unknown> extends KubeObject {
  spec: Spec;
  status?: St;
}

/** A list as the API returns it. */
export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: ListMeta;
  items: T[];
}

/**
 * Metadata-only form of an object (`PartialObjectMetadata`). The API server sends it as
 * `apiVersion: meta.k8s.io/v1`, `kind: PartialObjectMetadata`; metadata-only informers store it with
 * the apiVersion and kind of the object it stands for, as controller-runtime does.
 */
export interface PartialObjectMetadata extends KubeObject {
  apiVersion: string;
  kind: string;
}

/** Watch event types as they appear on the wire. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** The annotation the API server puts on the bookmark that ends a streaming initial list. @extension */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/** Deep-readonly view: what caches hand out (and enforce with `deepFreeze`). */
export type DeepReadonly<T> = T extends (infer E)[]
  ? ReadonlyArray<DeepReadonly<E>>
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
