/**
 * The `scale` subresource: the parent seen as an `autoscaling/v1 Scale` (replicas from the spec and
 * status paths, the label selector as a string), and writes that set only the parent's spec replicas
 * (bumping its generation like any spec change). The Scale's resourceVersion is the parent's, so the
 * usual optimistic concurrency applies.
 */
import type { KubeObject, LabelSelector } from '../../meta/index.js';
import { present, type Scope } from '../registry/index.js';
import { readPath, writePath } from '../registry/index.js';
import { fieldCause, invalid, notFound } from '../ground/index.js';

export interface Scale extends KubeObject {
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

/** `matchLabels`/`matchExpressions` as the string form of a label selector. */
export function formatLabelSelector(sel: LabelSelector): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) parts.push(`${k}=${v}`);
  for (const e of sel.matchExpressions ?? []) {
    const vals = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${vals})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${vals})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.join(',');
}

/** The Scale of a stored object, read through the request's version (whose paths the scale spec names). */
export function scaleOf(scope: Scope, stored: KubeObject): Scale {
  const spec = scope.strategy.scaleOf(scope.version);
  if (!spec) throw notFound(scope.strategy, scope.name);
  const obj = present(scope, stored);
  const sel = spec.labelSelectorPath ? readPath(obj, spec.labelSelectorPath) : undefined;
  const m = obj.metadata;
  const scale: Scale = {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      ...(m.name === undefined ? {} : { name: m.name }),
      ...(m.namespace ? { namespace: m.namespace } : {}),
      ...(m.uid === undefined ? {} : { uid: m.uid }),
      ...(m.resourceVersion === undefined ? {} : { resourceVersion: m.resourceVersion }),
      ...(m.creationTimestamp === undefined ? {} : { creationTimestamp: m.creationTimestamp }),
    },
    spec: {},
    status: { replicas: Number(readPath(obj, spec.statusReplicasPath) ?? 0) },
  };
  const replicas = readPath(obj, spec.specReplicasPath);
  if (typeof replicas === 'number') scale.spec.replicas = replicas;
  if (typeof sel === 'string') scale.status.selector = sel;
  else if (sel && typeof sel === 'object') scale.status.selector = formatLabelSelector(sel as LabelSelector);
  return scale;
}

/** The parent with the Scale's replicas written into it (a fresh copy). */
export function applyScale(scope: Scope, parent: KubeObject, scale: KubeObject): KubeObject {
  const spec = scope.strategy.scaleOf(scope.version)!;
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid('Scale', 'autoscaling', scope.name, [
      typeof replicas === 'number'
        ? fieldCause.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')
        : fieldCause.required('spec.replicas'),
    ]);
  }
  const next = structuredClone(parent) as KubeObject;
  writePath(next, spec.specReplicasPath, replicas);
  return next;
}
