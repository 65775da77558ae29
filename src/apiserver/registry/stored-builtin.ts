/**
 * Built-in kinds stored without type-specific rules beyond the common ones: the right
 * group, scope, short names and categories, generation and status-subresource handling for the
 * workload kinds, a scale subresource where the real one has it, and the extra field selectors the
 * real server supports. Enough for controllers that own StatefulSets, Jobs, Ingresses, RBAC objects,
 * etc., which nothing runs here (as in envtest). Each is printed with the default columns and
 * registered from the record made of its definition here.
 */
import type { NameRule } from './object-meta-validation.js';
import {
  ClusterRoleBindingResource,
  ClusterRoleResource,
  RoleBindingResource,
  RoleResource,
  type KubeObject,
  type ResourceDescriptor,
} from '../../meta/index.js';
import { defaultPrinter } from '../table/index.js';
import { Strategy, builtinVersion, readPath, type ScaleSpec, type VersionSpec } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

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
  /** The protobuf message of the kind's objects, where the server decodes them (kubectl's typed commands send them). */
  message?: string;
  /** meta's descriptor of the kind, where the client layer predefines one. */
  resource?: ResourceDescriptor<KubeObject>;
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
  override readonly printer = defaultPrinter;
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
const STORED_BUILTINS: readonly StoredBuiltinDefinition[] = [
  workload('StatefulSet', 'statefulsets', 'apps', { shortNames: ['sts'], scale: REPLICAS, message: 'StatefulSet' }),
  workload('DaemonSet', 'daemonsets', 'apps', { shortNames: ['ds'], message: 'DaemonSet' }),
  workload('Job', 'jobs', 'batch', { fields: ['status.successful'], message: 'Job' }),
  workload('CronJob', 'cronjobs', 'batch', { shortNames: ['cj'], message: 'CronJob' }),
  workload('ReplicationController', 'replicationcontrollers', '', {
    shortNames: ['rc'],
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
    fields: ['status.replicas'],
  }),
  { group: '', version: 'v1', kind: 'PodTemplate', plural: 'podtemplates', namespaced: true },
  {
    group: '',
    version: 'v1',
    kind: 'ResourceQuota',
    plural: 'resourcequotas',
    namespaced: true,
    shortNames: ['quota'],
    status: true,
    message: 'ResourceQuota',
  },
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
  {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'Ingress',
    plural: 'ingresses',
    namespaced: true,
    shortNames: ['ing'],
    status: true,
    message: 'Ingress',
  },
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
    message: 'PodDisruptionBudget',
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
    message: 'HorizontalPodAutoscaler',
  },
  {
    group: 'scheduling.k8s.io',
    version: 'v1',
    kind: 'PriorityClass',
    plural: 'priorityclasses',
    namespaced: false,
    shortNames: ['pc'],
    message: 'PriorityClass',
  },
  { group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass', plural: 'storageclasses', namespaced: false, shortNames: ['sc'] },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'Role',
    plural: 'roles',
    namespaced: true,
    nameRule: 'pathSegment',
    message: 'Role',
    resource: RoleResource,
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'RoleBinding',
    plural: 'rolebindings',
    namespaced: true,
    nameRule: 'pathSegment',
    message: 'RoleBinding',
    resource: RoleBindingResource,
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRole',
    plural: 'clusterroles',
    namespaced: false,
    nameRule: 'pathSegment',
    message: 'ClusterRole',
    resource: ClusterRoleResource,
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRoleBinding',
    plural: 'clusterrolebindings',
    namespaced: false,
    nameRule: 'pathSegment',
    message: 'ClusterRoleBinding',
    resource: ClusterRoleBindingResource,
  },
];

/** The record of a kind served from a definition: the common strategy (or `strategy`), printed with the default columns. */
export const storedBuiltinRecord = (
  d: StoredBuiltinDefinition,
  strategy: () => Strategy = () => new StoredBuiltinStrategy(d),
): BuiltinKind => ({
  strategy,
  resource: d.resource ?? null,
  protobuf: d.message === undefined ? null : { message: d.message },
  bodies: [],
});

/** The record of one of the kinds defined here, by kind name. */
export function storedBuiltin(kind: string): BuiltinKind {
  const d = STORED_BUILTINS.find((x) => x.kind === kind);
  if (d === undefined) throw new Error(`no stored built-in kind ${kind}`);
  return storedBuiltinRecord(d);
}
