/**
 * Names of `components.schemas` entries, following the real server: built-in kinds live under
 * their Go package (`io.k8s.api.apps.v1.Deployment`, `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`),
 * custom resources under their reversed group (`dev.converge.platform.v1alpha1.WebApp`).
 * `kubectl explain` finds a kind by the `x-kubernetes-group-version-kind` extension, not by name,
 * but names must be unique and stable inside one document.
 */
import type { GroupVersionKind } from '../../meta/index.js';

export const META_V1 = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const OBJECT_META = `${META_V1}.ObjectMeta`;
export const LIST_META = `${META_V1}.ListMeta`;
export const STATUS = `${META_V1}.Status`;
export const PATCH = `${META_V1}.Patch`;
export const DELETE_OPTIONS = `${META_V1}.DeleteOptions`;
export const WATCH_EVENT = `${META_V1}.WatchEvent`;

const BUILTIN_PACKAGES: Readonly<Record<string, string>> = {
  '': 'io.k8s.api.core',
  apps: 'io.k8s.api.apps',
  autoscaling: 'io.k8s.api.autoscaling',
  batch: 'io.k8s.api.batch',
  policy: 'io.k8s.api.policy',
  'rbac.authorization.k8s.io': 'io.k8s.api.rbac',
  'apiextensions.k8s.io': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions',
  'apiregistration.k8s.io': 'io.k8s.kube-aggregator.pkg.apis.apiregistration',
};

function packageOf(group: string): string {
  const known = BUILTIN_PACKAGES[group];
  if (known !== undefined) return known;
  if (group.endsWith('.k8s.io')) return `io.k8s.api.${group.slice(0, -'.k8s.io'.length).replace(/\./g, '')}`;
  return group.split('.').reverse().join('.');
}

/** The component name of a kind: `<package>.<version>.<Kind>`. */
export function componentName(gvk: GroupVersionKind): string {
  return `${packageOf(gvk.group)}.${gvk.version}.${gvk.kind}`;
}

/** `#/components/schemas/<name>` */
export const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });
