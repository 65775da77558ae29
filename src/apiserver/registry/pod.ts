/**
 * Pods: stored, never run (like envtest). Generation tracked from 1.33 on (the strategy keeps it
 * itself, since it depends on the version; before, it is left unset); on create the server sets
 * `status.phase: Pending` and `qosClass`; the spec is immutable apart from images and a few fields;
 * `/status` keeps the spec and owner references but accepts label/annotation changes; an immediate
 * delete answers with the deleted object.
 */
import { PodResource, jsonEqual, type KubeObject } from '../../meta/index.js';
import type { ServedResource } from '../served-resource.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import { defaultPodSpec, podSpecFields, qosClassOf, validatePodSpec } from './pod-spec.js';
import { ageColumn, cells, column, nameColumn, type TablePrinter } from '../table/index.js';
import { Strategy, builtinVersion, type VersionSpec, type WriteContext } from './strategy.js';
import { isOn } from '../versions/index.js';
import type { BuiltinKind } from './builtin-kind.js';

type Obj = Record<string, unknown>;
const spec = (o: KubeObject): Obj => (o.spec ?? {}) as Obj;
const status = (o: KubeObject): Obj => (o.status ?? {}) as Obj;

const { at, text, int, list, name, age } = cells;
const WIDE = { priority: 1 };

function podStatus(pod: Obj): string {
  if (at(pod, 'metadata', 'deletionTimestamp') !== undefined) return 'Terminating';
  let reason = text(at(pod, 'status', 'reason'), text(at(pod, 'status', 'phase')));
  for (const cs of list(at(pod, 'status', 'containerStatuses'))) {
    reason = text(at(cs, 'state', 'waiting', 'reason'), text(at(cs, 'state', 'terminated', 'reason'), reason));
  }
  return reason;
}

/** `kubectl get` columns, as kube-apiserver's printer for Pods. */
const podPrinter: TablePrinter = {
  columns: [
    nameColumn(),
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column(
      'Restarts',
      'string',
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    ),
    ageColumn(),
    column('IP', 'string', 'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', WIDE),
    column('Node', 'string', 'NodeName is a request to schedule this pod onto a specific node.', WIDE),
    column('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node.', WIDE),
    column('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness.', WIDE),
  ],
  cells: (o, now) => {
    const statuses = list(at(o, 'status', 'containerStatuses'));
    const ready = statuses.filter((c) => c['ready'] === true).length;
    const restarts = statuses.reduce((n, c) => n + int(c['restartCount']), 0);
    const gates = list(at(o, 'spec', 'readinessGates'));
    return [
      name(o),
      `${ready}/${list(at(o, 'spec', 'containers')).length}`,
      podStatus(o),
      String(restarts),
      age(o, now),
      text(at(o, 'status', 'podIP'), '<none>'),
      text(at(o, 'spec', 'nodeName'), '<none>'),
      text(at(o, 'status', 'nominatedNodeName'), '<none>'),
      gates.length === 0 ? '<none>' : `0/${gates.length}`,
    ];
  },
};

export class PodStrategy extends Strategy {
  readonly group = '';
  readonly kind = 'Pod';
  override readonly printer = podPrinter;
  readonly plural = 'pods';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1', { status: true })];
  override readonly shortNames = ['po'];
  override readonly categories = ['all'];
  override readonly returnDeletedObject = true;
  protected override readonly decodedFields = {
    ...podSpecFields('spec'),
    status: 'object',
    'status.podIPs': 'array',
    'status.podIPs[]': 'object',
  } as const;
  protected override readonly fields = {
    'spec.nodeName': (o: KubeObject) => spec(o).nodeName,
    'spec.host': (o: KubeObject) => spec(o).nodeName,
    'spec.restartPolicy': (o: KubeObject) => spec(o).restartPolicy,
    'spec.schedulerName': (o: KubeObject) => spec(o).schedulerName,
    'spec.serviceAccountName': (o: KubeObject) => spec(o).serviceAccountName,
    'spec.hostNetwork': (o: KubeObject) => String(spec(o).hostNetwork ?? false),
    'status.phase': (o: KubeObject) => status(o).phase,
    'status.podIP': (o: KubeObject) => status(o).podIP,
    'status.podIPs': (o: KubeObject) => ((status(o).podIPs as Obj[] | undefined) ?? []).map((p) => p.ip).join(','),
    'status.nominatedNodeName': (o: KubeObject) => status(o).nominatedNodeName,
  };

  /** A Pod bound to a node and not finished gets its grace period (no kubelet ends it: it stays until grace 0). */
  override gracePeriodSeconds(obj: KubeObject, requested: number | undefined): number {
    const phase = status(obj).phase;
    if (!spec(obj).nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
    const g = requested ?? (spec(obj).terminationGracePeriodSeconds as number | undefined) ?? 30;
    return Math.max(0, g);
  }

  /** `pods/eviction` (POST only) is served too. */
  override served(version: string): ServedResource {
    const r = super.served(version);
    r.subresources = [
      ...r.subresources,
      { name: 'eviction', responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] },
    ];
    return r;
  }

  override prepareForCreate(obj: KubeObject, ctx: WriteContext): void {
    if (isOn('podGeneration', ctx.kubernetesMinor)) (obj.metadata as Obj).generation = 1;
    obj.spec ??= {};
    defaultPodSpec(obj.spec);
    const s = obj.spec as Obj;
    s.enableServiceLinks ??= true;
    s.preemptionPolicy ??= 'PreemptLowerPriority';
    s.priority ??= 0;
    obj.status = { phase: 'Pending', qosClass: qosClassOf(obj.spec) };
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: WriteContext): void {
    obj.status = old.status;
    defaultPodSpec(obj.spec);
    if (isOn('podGeneration', ctx.kubernetesMinor) && !jsonEqual(obj.spec, old.spec))
      (obj.metadata as Obj).generation = (old.metadata.generation ?? 0) + 1;
  }

  override prepareForStatusUpdate(obj: KubeObject, old: KubeObject): void {
    obj.spec = old.spec;
    const m = obj.metadata as Obj;
    if (old.metadata.ownerReferences) m.ownerReferences = old.metadata.ownerReferences;
    else delete m.ownerReferences;
  }

  override validate(obj: KubeObject): FieldCause[] {
    return validatePodSpec(obj.spec, 'spec');
  }

  override validateUpdate(obj: KubeObject, old: KubeObject): FieldCause[] {
    const out = this.validate(obj);
    const strip = (o: KubeObject): Obj => {
      const s = structuredClone(spec(o));
      for (const list of ['containers', 'initContainers']) for (const c of (s[list] as Obj[] | undefined) ?? []) delete c.image;
      delete s.activeDeadlineSeconds;
      delete s.tolerations;
      delete s.terminationGracePeriodSeconds;
      return s;
    };
    if (!jsonEqual(strip(obj), strip(old))) {
      out.push(
        fieldCause.forbidden(
          'spec',
          'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
        ),
      );
    }
    return out;
  }
}

/** Pods, whose `eviction` subresource takes an Eviction (kubectl drain sends it as protobuf). */
export const podKind: BuiltinKind = {
  strategy: () => new PodStrategy(),
  resource: PodResource,
  protobuf: { message: 'Pod' },
  bodies: [{ subresource: 'eviction', apiVersion: 'policy/v1', kind: 'Eviction', message: 'Eviction' }],
};
