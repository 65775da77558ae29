/**
 * Group/version/kind and group/version/resource: parsing and formatting of `apiVersion` strings. The
 * core group is the empty string, so `v1` ⇄ `{group: '', version: 'v1'}` and `apps/v1` ⇄
 * `{group: 'apps', version: 'v1'}`. Invariant: `formatGroupVersion(parseGroupVersion(s)) === s` for
 * every valid `s`.
 */
import { InvalidOptionError } from './errors.js';

/** An API group and version; the core group is `''`, so `v1` is `{ group: '', version: 'v1' }`. */
export interface GroupVersion {
  group: string;
  version: string;
}
/** A kind within a group version: what an object's `apiVersion` and `kind` name. */
export interface GroupVersionKind extends GroupVersion {
  kind: string;
}
/** A resource (the lower-case plural of the URL) within a group version: what REST paths and RBAC name. */
export interface GroupVersionResource extends GroupVersion {
  resource: string;
}

/** Parses an `apiVersion` (`v1`, `apps/v1`); throws on empty input or more than one `/`. */
export function parseGroupVersion(apiVersion: string): GroupVersion {
  if (!apiVersion) throw new InvalidOptionError('apiVersion', 'must not be empty');
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0]! };
  if (parts.length === 2 && parts[0] && parts[1]) return { group: parts[0], version: parts[1] };
  throw new InvalidOptionError('apiVersion', `unexpected GroupVersion string: ${JSON.stringify(apiVersion)}`);
}

/** `v1` for the core group, `group/version` otherwise. */
export function formatGroupVersion(gv: GroupVersion): string {
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

/** The GVK of an object from its `apiVersion` and `kind`. */
export function gvkOf(obj: { apiVersion?: string; kind?: string }): GroupVersionKind {
  if (!obj.kind) throw new InvalidOptionError('kind', 'object has no kind');
  return { ...parseGroupVersion(obj.apiVersion ?? ''), kind: obj.kind };
}

/** `Deployment.v1.apps`-style string for messages (`ConfigMap.v1` for core). */
export function formatGVK(gvk: GroupVersionKind): string {
  return gvk.group ? `${gvk.kind}.${gvk.version}.${gvk.group}` : `${gvk.kind}.${gvk.version}`;
}

/** `deployments.v1.apps`-style string for messages (`configmaps.v1` for core). */
export function formatGVR(gvr: GroupVersionResource): string {
  return gvr.group ? `${gvr.resource}.${gvr.version}.${gvr.group}` : `${gvr.resource}.${gvr.version}`;
}
