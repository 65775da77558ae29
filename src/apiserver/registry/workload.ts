/**
 * Deployments and ReplicaSets (apps/v1): stored, never reconciled (no controllers run, as in
 * envtest). Defaults of a real cluster, a required selector that must match the template labels and
 * may not change, generation bumped on spec changes (Deployments also on annotation changes), status
 * reset on create and kept by main-endpoint writes, and the `scale` subresource.
 */
import { DeploymentResource, ReplicaSetResource, jsonEqual, type KubeObject, type LabelSelector } from '../../meta/index.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import { defaultPodSpec, podSpecFields, validatePodSpec } from './pod-spec.js';
import { ageColumn, cells, column, nameColumn, type TablePrinter } from '../table/index.js';
import { Strategy, builtinVersion, type DecodedFields, type VersionSpec } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

type Obj = Record<string, unknown>;

const SCALE = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' };

function selectorMatches(sel: LabelSelector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of sel.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const v = labels[e.key];
    if (e.operator === 'In' && !(has && (e.values ?? []).includes(v!))) return false;
    if (e.operator === 'NotIn' && has && (e.values ?? []).includes(v!)) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

const WORKLOAD_FIELDS: DecodedFields = {
  spec: 'object',
  'spec.template': 'object',
  'spec.template.metadata': 'object',
  'spec.selector': 'object',
  'spec.selector.matchLabels': 'object',
  'spec.selector.matchExpressions': 'array',
  'spec.selector.matchExpressions[]': 'object',
  ...podSpecFields('spec.template.spec'),
};

const { at, int, list, text, name, age, labelSelector } = cells;
const WIDE = { priority: 1 };

function templateContainers(obj: Obj): { names: string; images: string } {
  const containers = list(at(obj, 'spec', 'template', 'spec', 'containers'));
  return { names: containers.map((c) => text(c['name'])).join(','), images: containers.map((c) => text(c['image'])).join(',') };
}

/** `kubectl get` columns, as kube-apiserver's printer for Deployments. */
const deploymentPrinter: TablePrinter = {
  columns: [
    nameColumn(),
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'integer', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    column('Available', 'integer', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    ageColumn(),
    column('Containers', 'string', 'Names of each container in the template.', WIDE),
    column('Images', 'string', 'Images referenced by each container in the template.', WIDE),
    column(
      'Selector',
      'string',
      'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
      WIDE,
    ),
  ],
  cells: (o, now) => {
    const { names, images } = templateContainers(o);
    return [
      name(o),
      `${int(at(o, 'status', 'readyReplicas'))}/${int(at(o, 'spec', 'replicas'), 1)}`,
      int(at(o, 'status', 'updatedReplicas')),
      int(at(o, 'status', 'availableReplicas')),
      age(o, now),
      names,
      images,
      labelSelector(at(o, 'spec', 'selector')),
    ];
  },
};

/** `kubectl get` columns, as kube-apiserver's printer for ReplicaSets. */
const replicaSetPrinter: TablePrinter = {
  columns: [
    nameColumn(),
    column('Desired', 'integer', 'Replicas is the number of desired replicas.'),
    column('Current', 'integer', 'Replicas is the most recently observed number of replicas.'),
    column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    ageColumn(),
    column('Containers', 'string', 'Names of each container in the template.', WIDE),
    column('Images', 'string', 'Images referenced by each container in the template.', WIDE),
    column('Selector', 'string', 'Selector is a label query over pods that should match the replica count.', WIDE),
  ],
  cells: (o, now) => {
    const { names, images } = templateContainers(o);
    return [
      name(o),
      int(at(o, 'spec', 'replicas'), 1),
      int(at(o, 'status', 'replicas')),
      int(at(o, 'status', 'readyReplicas')),
      age(o, now),
      names,
      images,
      labelSelector(at(o, 'spec', 'selector')),
    ];
  },
};

abstract class WorkloadStrategy extends Strategy {
  readonly group = 'apps';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1', { status: true, scale: SCALE })];
  override readonly categories = ['all'];
  override readonly tracksGeneration = true;
  protected override readonly decodedFields: DecodedFields = WORKLOAD_FIELDS;

  protected defaultSpec(spec: Obj): void {
    spec.replicas ??= 1;
    const template = (spec.template ??= {}) as Obj;
    defaultPodSpec((template.spec ??= {}));
    const tm = (template.metadata ??= {}) as Obj;
    tm.creationTimestamp ??= null;
  }

  override prepareForCreate(obj: KubeObject): void {
    this.defaultSpec((obj.spec ??= {}) as Obj);
    obj.status = {};
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: Parameters<Strategy['prepareForUpdate']>[2]): void {
    super.prepareForUpdate(obj, old, ctx);
    this.defaultSpec((obj.spec ??= {}) as Obj);
  }

  override prepareForStatusUpdate(obj: KubeObject, old: KubeObject): void {
    obj.spec = old.spec;
    const m = obj.metadata as Obj;
    if (old.metadata.labels) m.labels = old.metadata.labels;
    else delete m.labels;
  }

  override validate(obj: KubeObject): FieldCause[] {
    const spec = (obj.spec ?? {}) as Obj;
    const out: FieldCause[] = [];
    const sel = spec.selector as LabelSelector | undefined;
    const template = (spec.template ?? {}) as Obj;
    const labels = ((template.metadata as Obj | undefined)?.labels ?? {}) as Record<string, string>;
    if (!sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0)) {
      out.push(fieldCause.required('spec.selector'));
    } else if (!selectorMatches(sel, labels)) {
      out.push(fieldCause.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
    }
    if (typeof spec.replicas === 'number' && spec.replicas < 0)
      out.push(fieldCause.invalid('spec.replicas', spec.replicas, 'must be greater than or equal to 0'));
    out.push(...validatePodSpec(template.spec, 'spec.template.spec'));
    return out;
  }

  override validateUpdate(obj: KubeObject, old: KubeObject): FieldCause[] {
    const out = this.validate(obj);
    const a = (obj.spec as Obj | undefined)?.selector;
    const b = (old.spec as Obj | undefined)?.selector;
    if (!jsonEqual(a, b)) out.push(fieldCause.invalid('spec.selector', a, 'field is immutable'));
    return out;
  }
}

export class DeploymentStrategy extends WorkloadStrategy {
  readonly kind = 'Deployment';
  override readonly printer = deploymentPrinter;
  readonly plural = 'deployments';
  override readonly shortNames = ['deploy'];
  protected override readonly decodedFields = {
    ...WORKLOAD_FIELDS,
    'spec.strategy': 'object',
    'spec.strategy.rollingUpdate': 'object',
  } as const;

  protected override defaultSpec(spec: Obj): void {
    super.defaultSpec(spec);
    const strategy = (spec.strategy ??= {}) as Obj;
    strategy.type ??= 'RollingUpdate';
    if (strategy.type === 'RollingUpdate') {
      const ru = (strategy.rollingUpdate ??= {}) as Obj;
      ru.maxUnavailable ??= '25%';
      ru.maxSurge ??= '25%';
    }
    spec.revisionHistoryLimit ??= 10;
    spec.progressDeadlineSeconds ??= 600;
  }

  override generationChanged(obj: KubeObject, old: KubeObject): boolean {
    return !jsonEqual(obj.spec, old.spec) || !jsonEqual(obj.metadata.annotations ?? {}, old.metadata.annotations ?? {});
  }
}

export class ReplicaSetStrategy extends WorkloadStrategy {
  readonly kind = 'ReplicaSet';
  override readonly printer = replicaSetPrinter;
  readonly plural = 'replicasets';
  override readonly shortNames = ['rs'];
  protected override readonly fields = { 'status.replicas': (o: KubeObject) => String((o.status as Obj | undefined)?.replicas ?? 0) };
}

/** Deployments. */
export const deploymentKind: BuiltinKind = {
  strategy: () => new DeploymentStrategy(),
  resource: DeploymentResource,
  protobuf: { message: 'Deployment' },
  bodies: [],
};

/** ReplicaSets. */
export const replicaSetKind: BuiltinKind = {
  strategy: () => new ReplicaSetStrategy(),
  resource: ReplicaSetResource,
  protobuf: { message: 'ReplicaSet' },
  bodies: [],
};
