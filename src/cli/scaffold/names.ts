/**
 * The names a scaffolded project and each of its kinds are written with, derived once from what the
 * user typed and checked there, so no template ever sees a name Kubernetes, npm or TypeScript would
 * refuse. Invariant: every name returned is valid where it is used (a DNS label for the project, a
 * DNS subdomain for the group, an identifier for the kind).
 */

/** Thrown for a name that cannot be used; the CLI shows it with the usage text. */
export class ScaffoldUsageError extends Error {
  override readonly name = 'ScaffoldUsageError';
}

export interface KindNames {
  /** `Backup`: the kind, and the TypeScript name of its definition. */
  kind: string;
  /** `backups`: the resource name in URLs and RBAC rules. */
  plural: string;
  /** `backup`: the base of its file names. */
  file: string;
  group: string;
  version: string;
  /** False for a cluster-scoped kind (`create api --namespaced=false`). */
  namespaced: boolean;
}

export interface ProjectNames {
  /** `demo-op`: the npm package, the Deployment, the ServiceAccount and the image. */
  name: string;
  /** `demo-op-system`: where the operator runs and takes its leader-election Lease. */
  namespace: string;
  group: string;
  version: string;
  /** What package.json's `kube-converge` dependency says: `^0.1.0`, or `file:vendor/kube-converge-0.1.0.tgz`. */
  convergeDependency: string;
}

const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;
/** A new API starts unstable; its first version says so. */
export const FIRST_VERSION = 'v1alpha1';

/** Checks a project name: a DNS label short enough that `<name>-system` is one too. */
export function checkProjectName(name: string): string {
  if (!DNS_LABEL.test(name) || name.length > 56) {
    throw new ScaffoldUsageError(
      `the project name must be lower-case letters, digits and '-', start with a letter, not end with '-', at most 56 characters; got ${JSON.stringify(name)}`,
    );
  }
  return name;
}

/** Checks an API group: a DNS subdomain with at least one dot (Kubernetes refuses CRDs in a dotless group). */
export function checkGroup(group: string): string {
  const labels = group.split('.');
  if (labels.length < 2 || group.length > 253 || !labels.every((l) => DNS_LABEL.test(l))) {
    throw new ScaffoldUsageError(`the group must be a DNS subdomain with a dot, such as ops.example.com; got ${JSON.stringify(group)}`);
  }
  return group;
}

/** `demo-op` → `demo-op.example.com`: a group nobody owns, to be replaced by the user's own domain. */
export const defaultGroup = (project: string): string => `${project}.example.com`;

/** `demo-op` → `Demo`, `backup-operator` → `Backup`, `cache` → `Cache`. */
export function defaultKind(project: string): string {
  const words = project.replace(/-(op|operator)$/, '').split('-');
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** English plural of a lower-cased kind, as kubectl and kubebuilder form it. */
function plural(lower: string): string {
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

const VERSION = /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;

/** Checks an API version as Kubernetes sorts them: v1, v2beta1, v1alpha2. */
export function checkVersion(version: string): string {
  if (!VERSION.test(version))
    throw new ScaffoldUsageError(`the version must look like v1, v1beta1 or v1alpha1; got ${JSON.stringify(version)}`);
  return version;
}

export function kindNames(kind: string, group: string, version: string, namespaced = true): KindNames {
  if (!KIND.test(kind) || kind.length > 63) {
    throw new ScaffoldUsageError(`the kind must be UpperCamelCase letters and digits, such as Backup; got ${JSON.stringify(kind)}`);
  }
  const lower = kind.toLowerCase();
  return { kind, plural: plural(lower), file: lower, group, version, namespaced };
}
