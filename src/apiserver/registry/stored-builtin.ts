/**
 * Built-in kinds stored without type-specific rules beyond the common ones: the right
 * group, scope, short names and categories, generation and status-subresource handling for the
 * workload kinds, a scale subresource where the real one has it, and the extra field selectors the
 * real server supports. Enough for controllers that own StatefulSets, Jobs, Ingresses, RBAC objects,
 * etc., which nothing runs here (as in envtest).
 */
import type { NameRule } from './object-meta-validation.js';
import type { KubeObject } from '../../meta/index.js';
import { Strategy, builtinVersion, readPath, type ScaleSpec, type VersionSpec } from './strategy.js';

export interface StoredBuiltinDefinition {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Has a status subresource; main-endpoint writes keep status. */
  status?: boolean;
  /** Maintains metadata.generation, bumped by spec changes. */
  generation?: boolean;
  scale?: ScaleSpec;
  /** Extra field-selector fields, each read from the dotted path of the same name. */
  fields?: string[];
  /** How names are checked (default: DNS-1123 subdomain). RBAC kinds take any path segment (`system:discovery`). */
  nameRule?: NameRule;
}

const REPLICAS: ScaleSpec = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.spec.selector',
};

export class StoredBuiltinStrategy extends Strategy {
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly versions: VersionSpec[];
  override readonly shortNames: string[];
  override readonly categories: string[];
  override readonly tracksGeneration: boolean;
  override readonly nameRule: NameRule;
  protected override readonly fields: Record<string, (obj: KubeObject) => unknown>;

  constructor(d: StoredBuiltinDefinition) {
    super();
    this.group = d.group;
    this.kind = d.kind;
    this.plural = d.plural;
    this.namespaced = d.namespaced;
    this.versions = [builtinVersion(d.version, { status: d.status ?? false, ...(d.scale ? { scale: d.scale } : {}) })];
    this.shortNames = d.shortNames ?? [];
    this.categories = d.categories ?? [];
    this.tracksGeneration = d.generation ?? false;
    this.nameRule = d.nameRule ?? 'subdomain';
    this.fields = Object.fromEntries((d.fields ?? []).map((f) => [f, (o: KubeObject) => readPath(o, f)]));
  }
}

const workload = (kind: string, plural: string, group: string, extra: Partial<StoredBuiltinDefinition> = {}): StoredBuiltinDefinition => ({
  group,
  version: 'v1',
  kind,
  plural,
  namespaced: true,
  categories: ['all'],
  status: true,
  generation: true,
  ...extra,
});

/** The kinds served this way. */
export const STORED_BUILTINS: readonly StoredBuiltinDefinition[] = [
  workload('StatefulSet', 'statefulsets', 'apps', { shortNames: ['sts'], scale: REPLICAS }),
  workload('DaemonSet', 'daemonsets', 'apps', { shortNames: ['ds'] }),
  workload('Job', 'jobs', 'batch', { fields: ['status.successful'] }),
  workload('CronJob', 'cronjobs', 'batch', { shortNames: ['cj'] }),
  workload('ReplicationController', 'replicationcontrollers', '', {
    shortNames: ['rc'],
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
    fields: ['status.replicas'],
  }),
  { group: '', version: 'v1', kind: 'PodTemplate', plural: 'podtemplates', namespaced: true },
  { group: '', version: 'v1', kind: 'ResourceQuota', plural: 'resourcequotas', namespaced: true, shortNames: ['quota'], status: true },
  { group: '', version: 'v1', kind: 'LimitRange', plural: 'limitranges', namespaced: true, shortNames: ['limits'] },
  { group: '', version: 'v1', kind: 'Endpoints', plural: 'endpoints', namespaced: true, shortNames: ['ep'] },
  { group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true },
  {
    group: '',
    version: 'v1',
    kind: 'Node',
    plural: 'nodes',
    namespaced: false,
    shortNames: ['no'],
    status: true,
    fields: ['spec.unschedulable'],
  },
  {
    group: '',
    version: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    namespaced: true,
    shortNames: ['pvc'],
    status: true,
  },
  { group: '', version: 'v1', kind: 'PersistentVolume', plural: 'persistentvolumes', namespaced: false, shortNames: ['pv'], status: true },
  { group: 'networking.k8s.io', version: 'v1', kind: 'Ingress', plural: 'ingresses', namespaced: true, shortNames: ['ing'], status: true },
  { group: 'networking.k8s.io', version: 'v1', kind: 'NetworkPolicy', plural: 'networkpolicies', namespaced: true, shortNames: ['netpol'] },
  {
    group: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    namespaced: true,
    shortNames: ['pdb'],
    status: true,
    generation: true,
  },
  {
    group: 'autoscaling',
    version: 'v2',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    status: true,
  },
  { group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass', plural: 'priorityclasses', namespaced: false, shortNames: ['pc'] },
  { group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass', plural: 'storageclasses', namespaced: false, shortNames: ['sc'] },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'ValidatingWebhookConfiguration',
    plural: 'validatingwebhookconfigurations',
    namespaced: false,
    categories: ['api-extensions'],
    generation: true,
  },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'MutatingWebhookConfiguration',
    plural: 'mutatingwebhookconfigurations',
    namespaced: false,
    categories: ['api-extensions'],
    generation: true,
  },
  { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', plural: 'roles', namespaced: true, nameRule: 'pathSegment' },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'RoleBinding',
    plural: 'rolebindings',
    namespaced: true,
    nameRule: 'pathSegment',
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRole',
    plural: 'clusterroles',
    namespaced: false,
    nameRule: 'pathSegment',
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRoleBinding',
    plural: 'clusterrolebindings',
    namespaced: false,
    nameRule: 'pathSegment',
  },
];
