/**
 * The server-side printers of the built-in kinds the server stores, with the columns and cell
 * rules of kube-apiserver's printers (`kubectl get` output reads the same as against a cluster):
 * ConfigMap `NAME DATA AGE`, Secret `NAME TYPE DATA AGE`, Namespace `NAME STATUS AGE`, Pod
 * `NAME READY STATUS RESTARTS AGE` (+ wide), Deployment `NAME READY UP-TO-DATE AVAILABLE AGE`,
 * ReplicaSet, Service `NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE`, ServiceAccount, Lease
 * `NAME HOLDER AGE`, Events. Kinds without a printer use the default `Name`/`Created At` columns.
 * Stored objects are read defensively: a missing or mistyped field is an empty cell, never an error.
 */
import { column, nameColumn, ageColumn } from './columns.js';
import type { TableColumnDefinition } from './columns.js';
import { ageOf } from './human-duration.js';

type Obj = Record<string, unknown>;

export interface BuiltinPrinter {
  columns: TableColumnDefinition[];
  cells(obj: Obj, now: number): unknown[];
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at a field path, or undefined when any step is missing. */
function at(obj: unknown, ...path: string[]): unknown {
  let v = obj;
  for (const key of path) v = isObj(v) ? v[key] : undefined;
  return v;
}
const text = (v: unknown, fallback = ''): string => (typeof v === 'string' && v !== '' ? v : fallback);
const int = (v: unknown, fallback = 0): number => (typeof v === 'number' ? v : fallback);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const count = (m: unknown): number => (isObj(m) ? Object.keys(m).length : 0);

const age = (obj: Obj, now: number): string => ageOf(at(obj, 'metadata', 'creationTimestamp'), now);
const name = (obj: Obj): string => text(at(obj, 'metadata', 'name'));
const orNone = (values: string[]): string => (values.length === 0 ? '<none>' : values.join(','));

function labelSelector(sel: unknown): string {
  const parts = Object.entries(isObj(at(sel, 'matchLabels')) ? (at(sel, 'matchLabels') as Obj) : {}).map(([k, v]) => `${k}=${String(v)}`);
  for (const e of list(at(sel, 'matchExpressions'))) {
    const key = text(e['key']);
    const values = (Array.isArray(e['values']) ? e['values'] : []).map(String).join(',');
    if (e['operator'] === 'In') parts.push(`${key} in (${values})`);
    else if (e['operator'] === 'NotIn') parts.push(`${key} notin (${values})`);
    else if (e['operator'] === 'Exists') parts.push(key);
    else if (e['operator'] === 'DoesNotExist') parts.push(`!${key}`);
  }
  return orNone(parts);
}

const mapSelector = (m: unknown): string => orNone(Object.entries(isObj(m) ? m : {}).map(([k, v]) => `${k}=${String(v)}`));

function podStatus(pod: Obj): string {
  if (at(pod, 'metadata', 'deletionTimestamp') !== undefined) return 'Terminating';
  let reason = text(at(pod, 'status', 'reason'), text(at(pod, 'status', 'phase')));
  for (const cs of list(at(pod, 'status', 'containerStatuses'))) {
    reason = text(at(cs, 'state', 'waiting', 'reason'), text(at(cs, 'state', 'terminated', 'reason'), reason));
  }
  return reason;
}

function servicePorts(svc: Obj): string {
  return orNone(list(at(svc, 'spec', 'ports')).map((p) => {
    const proto = text(p['protocol'], 'TCP');
    return p['nodePort'] !== undefined ? `${String(p['port'])}:${String(p['nodePort'])}/${proto}` : `${String(p['port'])}/${proto}`;
  }));
}

function serviceExternalIp(svc: Obj): string {
  const type = text(at(svc, 'spec', 'type'), 'ClusterIP');
  const external = (Array.isArray(at(svc, 'spec', 'externalIPs')) ? (at(svc, 'spec', 'externalIPs') as unknown[]) : []).map(String);
  if (type === 'ExternalName') return text(at(svc, 'spec', 'externalName'), '<none>');
  if (type === 'LoadBalancer') {
    const ingress = list(at(svc, 'status', 'loadBalancer', 'ingress')).map((i) => text(i['ip'], text(i['hostname']))).filter((s) => s !== '');
    const all = [...ingress, ...external];
    return all.length > 0 ? all.join(',') : '<pending>';
  }
  return orNone(external);
}

function templateContainers(obj: Obj): { names: string; images: string } {
  const containers = list(at(obj, 'spec', 'template', 'spec', 'containers'));
  return { names: containers.map((c) => text(c['name'])).join(','), images: containers.map((c) => text(c['image'])).join(',') };
}

const eventPrinter: BuiltinPrinter = {
  columns: [
    column('Last Seen', 'string', 'Time when latest event occurred'),
    column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future.'),
    column('Reason', 'string', 'This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.'),
    column('Object', 'string', 'The object this Event is about.'),
    column('Message', 'string', 'A human-readable description of the status of this operation.'),
  ],
  cells: (ev, now) => {
    const ref = at(ev, 'involvedObject') ?? at(ev, 'regarding');
    const lastSeen = at(ev, 'series', 'lastObservedTime') ?? at(ev, 'lastTimestamp') ?? at(ev, 'deprecatedLastTimestamp') ?? at(ev, 'eventTime') ?? at(ev, 'metadata', 'creationTimestamp');
    return [
      ageOf(lastSeen, now), text(ev['type']), text(ev['reason']),
      `${text(at(ref, 'kind')).toLowerCase()}/${text(at(ref, 'name'))}`, text(ev['message'], text(ev['note'])),
    ];
  },
};

const WIDE = { priority: 1 };

const PRINTERS: ReadonlyMap<string, BuiltinPrinter> = new Map<string, BuiltinPrinter>([
  ['/ConfigMap', {
    columns: [nameColumn(), column('Data', 'integer', 'Data contains the configuration data.'), ageColumn()],
    cells: (o, now) => [name(o), count(o['data']) + count(o['binaryData']), age(o, now)],
  }],
  ['/Secret', {
    columns: [nameColumn(), column('Type', 'string', 'Used to facilitate programmatic handling of secret data.'), column('Data', 'integer', 'Data contains the secret data.'), ageColumn()],
    cells: (o, now) => [name(o), text(o['type'], 'Opaque'), count(o['data']), age(o, now)],
  }],
  ['/Namespace', {
    columns: [nameColumn(), column('Status', 'string', 'The status of the namespace'), ageColumn()],
    cells: (o, now) => [name(o), text(at(o, 'status', 'phase')), age(o, now)],
  }],
  ['/ServiceAccount', {
    columns: [nameColumn(), column('Secrets', 'string', 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.'), ageColumn()],
    cells: (o, now) => [name(o), list(o['secrets']).length, age(o, now)],
  }],
  ['/Pod', {
    columns: [
      nameColumn(),
      column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
      column('Status', 'string', 'The aggregate status of the containers in this pod.'),
      column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
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
        name(o), `${ready}/${list(at(o, 'spec', 'containers')).length}`, podStatus(o), String(restarts), age(o, now),
        text(at(o, 'status', 'podIP'), '<none>'), text(at(o, 'spec', 'nodeName'), '<none>'), text(at(o, 'status', 'nominatedNodeName'), '<none>'),
        gates.length === 0 ? '<none>' : `0/${gates.length}`,
      ];
    },
  }],
  ['/Service', {
    columns: [
      nameColumn(),
      column('Type', 'string', 'type determines how the Service is exposed.'),
      column('Cluster-IP', 'string', 'clusterIP is the IP address of the service and is usually assigned randomly.'),
      column('External-IP', 'string', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.'),
      column('Port(s)', 'string', 'The list of ports that are exposed by this service.'),
      ageColumn(),
      column('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.', WIDE),
    ],
    cells: (o, now) => [
      name(o), text(at(o, 'spec', 'type'), 'ClusterIP'), text(at(o, 'spec', 'clusterIP'), '<none>'), serviceExternalIp(o), servicePorts(o), age(o, now),
      mapSelector(at(o, 'spec', 'selector')),
    ],
  }],
  ['apps/Deployment', {
    columns: [
      nameColumn(),
      column('Ready', 'string', 'Number of the pod with ready state'),
      column('Up-to-date', 'integer', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
      column('Available', 'integer', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
      ageColumn(),
      column('Containers', 'string', 'Names of each container in the template.', WIDE),
      column('Images', 'string', 'Images referenced by each container in the template.', WIDE),
      column('Selector', 'string', 'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.', WIDE),
    ],
    cells: (o, now) => {
      const { names, images } = templateContainers(o);
      return [
        name(o), `${int(at(o, 'status', 'readyReplicas'))}/${int(at(o, 'spec', 'replicas'), 1)}`, int(at(o, 'status', 'updatedReplicas')),
        int(at(o, 'status', 'availableReplicas')), age(o, now), names, images, labelSelector(at(o, 'spec', 'selector')),
      ];
    },
  }],
  ['apps/ReplicaSet', {
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
        name(o), int(at(o, 'spec', 'replicas'), 1), int(at(o, 'status', 'replicas')), int(at(o, 'status', 'readyReplicas')), age(o, now),
        names, images, labelSelector(at(o, 'spec', 'selector')),
      ];
    },
  }],
  ['coordination.k8s.io/Lease', {
    columns: [nameColumn(), column('Holder', 'string', 'holderIdentity contains the identity of the holder of a current lease.'), ageColumn()],
    cells: (o, now) => [name(o), text(at(o, 'spec', 'holderIdentity')), age(o, now)],
  }],
  ['/Event', eventPrinter],
  ['events.k8s.io/Event', eventPrinter],
]);

/** The printer of a built-in kind, or undefined when the kind uses the default columns. */
export function builtinPrinter(group: string, kind: string): BuiltinPrinter | undefined {
  return PRINTERS.get(`${group}/${kind}`);
}

/** The printer of a built-in kind found by kind alone (built-in kind names are unique across groups). */
export function builtinPrinterForKind(kind: string): BuiltinPrinter | undefined {
  for (const [key, printer] of PRINTERS) if (key.endsWith(`/${kind}`)) return printer;
  return undefined;
}
