/**
 * The strategic-merge-patch metadata of the built-in types the server stores: which lists merge
 * by a key (`containers` by `name`, `ports` by `containerPort`, …), which primitive lists merge as
 * sets (`finalizers`), and which maps are replaced on `$retainKeys`. This is the information the
 * real server reads from Go struct tags (`patchStrategy`, `patchMergeKey`). Fields not described
 * here follow the default rules: maps merge recursively, lists are replaced whole.
 */
import type { GroupVersionKind } from '../../meta/index.js';

/** How one field (and, for lists, each of its elements) is merged. */
export interface FieldStrategy {
  /** List of maps merged element by element, matched on this key. */
  mergeKey?: string;
  /**
   * The keys server-side apply matches elements of this list on, where Kubernetes' `+listMapKey`
   * markers are wider than the patch merge key (ports by number and protocol), with the defaults that
   * key an element omitting an optional one (`+default`: a port without `protocol` is `TCP`).
   */
  listMapKeys?: { keys: readonly string[]; defaults?: Readonly<Record<string, unknown>> };
  /** List of primitives merged as a set (`patchStrategy: merge` without a key). */
  mergePrimitives?: boolean;
  /** Map whose fields are cleared when the patch carries `$retainKeys` (`patchStrategy: retainKeys`). */
  retainKeys?: boolean;
  /** Strategies of the fields of this map, or of the maps inside this list. */
  fields?: Readonly<Record<string, FieldStrategy>>;
}

const byKey = (mergeKey: string, fields?: Record<string, FieldStrategy>): FieldStrategy => (fields ? { mergeKey, fields } : { mergeKey });

const conditions = byKey('type');
const portsBy = (number: string): FieldStrategy => ({
  mergeKey: number,
  listMapKeys: { keys: [number, 'protocol'], defaults: { protocol: 'TCP' } },
});

const objectMeta: FieldStrategy = {
  fields: {
    finalizers: { mergePrimitives: true },
    ownerReferences: byKey('uid'),
  },
};

const container: Record<string, FieldStrategy> = {
  ports: portsBy('containerPort'),
  env: byKey('name'),
  volumeMounts: byKey('mountPath'),
  volumeDevices: byKey('devicePath'),
};

const podSpec: FieldStrategy = {
  fields: {
    containers: byKey('name', container),
    initContainers: byKey('name', container),
    ephemeralContainers: byKey('name', container),
    volumes: { mergeKey: 'name', retainKeys: true },
    imagePullSecrets: byKey('name'),
    hostAliases: byKey('ip'),
    topologySpreadConstraints: { mergeKey: 'topologyKey', listMapKeys: { keys: ['topologyKey', 'whenUnsatisfiable'] } },
    resourceClaims: { mergeKey: 'name', retainKeys: true },
    schedulingGates: byKey('name'),
  },
};

const podTemplateSpec: FieldStrategy = { fields: { metadata: objectMeta, spec: podSpec } };

const withMeta = (fields: Record<string, FieldStrategy>): FieldStrategy => ({ fields: { metadata: objectMeta, ...fields } });

const workloadStatus: FieldStrategy = { fields: { conditions } };

const STRATEGIES: ReadonlyMap<string, FieldStrategy> = new Map([
  ['/v1/Pod', withMeta({ spec: podSpec, status: { fields: { conditions } } })],
  ['/v1/PodTemplate', withMeta({ template: podTemplateSpec })],
  ['/v1/ReplicationController', withMeta({ spec: { fields: { template: podTemplateSpec } }, status: workloadStatus })],
  ['/v1/Service', withMeta({ spec: { fields: { ports: portsBy('port') } }, status: { fields: { conditions } } })],
  ['/v1/Namespace', withMeta({ status: workloadStatus })],
  ['/v1/ConfigMap', withMeta({})],
  ['/v1/Secret', withMeta({})],
  ['/v1/ServiceAccount', withMeta({ secrets: byKey('name'), imagePullSecrets: byKey('name') })],
  ['/v1/Event', withMeta({})],
  ['/v1/Endpoints', withMeta({})],
  ['/v1/Node', withMeta({ status: { fields: { conditions, addresses: byKey('type') } } })],
  [
    'apps/v1/Deployment',
    withMeta({ spec: { fields: { template: podTemplateSpec, strategy: { retainKeys: true } } }, status: workloadStatus }),
  ],
  ['apps/v1/ReplicaSet', withMeta({ spec: { fields: { template: podTemplateSpec } }, status: workloadStatus })],
  ['apps/v1/StatefulSet', withMeta({ spec: { fields: { template: podTemplateSpec } }, status: workloadStatus })],
  ['apps/v1/DaemonSet', withMeta({ spec: { fields: { template: podTemplateSpec } }, status: workloadStatus })],
  ['batch/v1/Job', withMeta({ spec: { fields: { template: podTemplateSpec } }, status: workloadStatus })],
  ['batch/v1/CronJob', withMeta({ spec: { fields: { jobTemplate: { fields: { spec: { fields: { template: podTemplateSpec } } } } } } })],
  ['coordination.k8s.io/v1/Lease', withMeta({})],
  ['events.k8s.io/v1/Event', withMeta({})],
  ['apiextensions.k8s.io/v1/CustomResourceDefinition', withMeta({})],
]);

const gvkKey = (gvk: GroupVersionKind): string => `${gvk.group}/${gvk.version}/${gvk.kind}`;

/** The merge metadata of a built-in kind, or undefined when the kind has none (custom resources). */
export function strategyFor(gvk: GroupVersionKind): FieldStrategy | undefined {
  return STRATEGIES.get(gvkKey(gvk));
}

/** True for the built-in kinds that accept `application/strategic-merge-patch+json`. */
export function supportsStrategicMerge(gvk: GroupVersionKind): boolean {
  return STRATEGIES.has(gvkKey(gvk));
}
