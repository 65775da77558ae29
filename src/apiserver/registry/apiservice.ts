/**
 * APIServices (apiregistration.k8s.io/v1): the registrations kube-apiserver's aggregator keeps, one per
 * served group-version. Local ones (no `spec.service`) are served by this server itself, so they are
 * Available from their creation on, as the aggregator's availability check marks them; one that names a
 * service is stored without a condition, since nothing here proxies to it. `localApiServices` gives the
 * registrations of the built-in group-versions the server serves at start, with kube-apiserver's
 * priorities; a group-version missing from that table gets none, as kube-apiserver registers none.
 */
import { formatTimestamp, type KubeObject } from '../../meta/index.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import { ageColumn, cells, column, nameColumn, type TablePrinter } from '../table/index.js';
import { Strategy, builtinVersion, type VersionSpec, type WriteContext } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

const { at, text, list, name, age } = cells;

/** SERVICE: `namespace/name`, or `Local`; AVAILABLE: the condition's status, with its reason when not True. */
const apiServicePrinter: TablePrinter = {
  columns: [
    nameColumn(),
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    ageColumn(),
  ],
  cells: (o, now) => {
    const svc = at(o, 'spec', 'service');
    const service = svc ? `${text(at(svc, 'namespace'))}/${text(at(svc, 'name'))}` : 'Local';
    const available = list(at(o, 'status', 'conditions')).find((c) => c['type'] === 'Available');
    const status = text(available?.['status'], 'Unknown');
    const reason = text(available?.['reason']);
    return [name(o), service, status === 'True' || reason === '' ? status : `${status} (${reason})`, age(o, now)];
  },
};

export class ApiServiceStrategy extends Strategy {
  readonly group = 'apiregistration.k8s.io';
  readonly kind = 'APIService';
  override readonly printer = apiServicePrinter;
  readonly plural = 'apiservices';
  readonly namespaced = false;
  readonly versions: VersionSpec[] = [builtinVersion('v1', { status: true })];
  // `v1.` (the core group's) is no DNS subdomain; the name must be `<version>.<group>` instead (validate).
  override readonly nameRule = 'pathSegment' as const;

  override validate(obj: KubeObject): FieldCause[] {
    const spec = (obj.spec ?? {}) as { group?: unknown; version?: unknown };
    const required = `${String(spec.version ?? '')}.${String(spec.group ?? '')}`;
    const name = obj.metadata.name ?? '';
    return name === required
      ? []
      : [fieldCause.invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(required)}`)];
  }

  override prepareForCreate(obj: KubeObject, ctx: WriteContext): void {
    super.prepareForCreate(obj, ctx);
    const spec = obj.spec as { service?: unknown } | undefined;
    if (spec?.service) return;
    obj.status = {
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastTransitionTime: formatTimestamp(ctx.now),
          reason: 'Local',
          message: 'Local APIServices are always available',
        },
      ],
    };
  }
}

/** kube-apiserver's ordering of the built-in group-versions: group priority, then version priority. */
const PRIORITIES: Record<string, [number, number]> = {
  v1: [18000, 1],
  'v1.apiregistration.k8s.io': [18000, 15],
  'v1.apps': [17800, 15],
  'v1.events.k8s.io': [17750, 15],
  'v1.authentication.k8s.io': [17700, 15],
  'v1.authorization.k8s.io': [17600, 15],
  'v2.autoscaling': [17500, 30],
  'v1.autoscaling': [17500, 15],
  'v1.batch': [17400, 15],
  'v1.networking.k8s.io': [17200, 15],
  'v1.policy': [17100, 15],
  'v1.rbac.authorization.k8s.io': [17000, 15],
  'v1.storage.k8s.io': [16800, 15],
  'v1.admissionregistration.k8s.io': [16700, 15],
  'v1.apiextensions.k8s.io': [16700, 15],
  'v1.scheduling.k8s.io': [16600, 15],
  'v1.coordination.k8s.io': [16500, 15],
  'v1.discovery.k8s.io': [16200, 15],
};

/** The local APIServices of `groups` (what the registry serves), named `<version>.<group>` (`v1.` for core). */
export function localApiServices(groups: { group: string; versions: string[] }[]): KubeObject[] {
  return groups.flatMap(({ group, versions }) =>
    versions.flatMap((version) => {
      const priority = PRIORITIES[group ? `${version}.${group}` : version];
      if (!priority) return [];
      return [
        {
          apiVersion: 'apiregistration.k8s.io/v1',
          kind: 'APIService',
          metadata: { name: `${version}.${group}` },
          spec: { group, version, groupPriorityMinimum: priority[0], versionPriority: priority[1] },
        },
      ];
    }),
  );
}

/** APIServices. */
export const apiServiceKind: BuiltinKind = {
  strategy: () => new ApiServiceStrategy(),
  resource: null,
  protobuf: null,
  bodies: [],
};
