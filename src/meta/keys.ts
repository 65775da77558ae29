/**
 * Object keys, as client-go's `MetaNamespaceKeyFunc` / `SplitMetaNamespaceKey`: `namespace/name`, or
 * `name` for cluster-scoped objects. A `NamespacedName` is the value form, and what reconcile
 * requests carry. Invariant: `splitKey(objectKey(o))` gives back the object's namespace and name.
 */
import { InvalidKeyError } from './errors.js';
import type { KubeObject } from './object.js';

export interface NamespacedName {
  /** Empty string (or absent) for cluster-scoped objects. */
  namespace?: string;
  name: string;
}

/** `namespace/name`, or `name` when the namespace is empty. */
export function keyOf(nn: NamespacedName): string {
  return nn.namespace ? `${nn.namespace}/${nn.name}` : nn.name;
}

/**
 * `keyOf`, followed by ` in cluster <name>` when `cluster` is a string (a fleet's request or object
 * names its member cluster; the manager's own carry none): how explain and the dashboard show one.
 */
export function clusterKeyOf(nn: NamespacedName & { cluster?: unknown }): string {
  return typeof nn.cluster === 'string' ? `${keyOf(nn)} in cluster ${nn.cluster}` : keyOf(nn);
}

/** The key of an object; throws if it has no metadata or name. */
export function objectKey(obj: Pick<KubeObject, 'metadata'>): string {
  const m = obj?.metadata;
  if (!m || typeof m.name !== 'string') throw new InvalidKeyError(`<object without metadata.name>`);
  return m.namespace ? `${m.namespace}/${m.name}` : m.name;
}

/** Splits a key with the errors of client-go's `SplitMetaNamespaceKey` (more than one `/` is an error). */
export function splitKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0]! };
  if (parts.length === 2) return { namespace: parts[0]!, name: parts[1]! };
  throw new InvalidKeyError(key);
}

/** The `NamespacedName` of an object (namespace omitted when cluster-scoped). */
export function namespacedNameOf(obj: Pick<KubeObject, 'metadata'>): NamespacedName {
  const ns = obj.metadata.namespace;
  return ns ? { namespace: ns, name: obj.metadata.name ?? '' } : { name: obj.metadata.name ?? '' };
}
