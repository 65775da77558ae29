/**
 * The server-side printers of the built-in kinds the server stores, with the columns and cell
 * rules of kube-apiserver's printers (`kubectl get` output reads the same as against a cluster):
 * ConfigMap `NAME DATA AGE`, Secret `NAME TYPE DATA AGE`, Namespace `NAME STATUS AGE`, Pod
 * `NAME READY STATUS RESTARTS AGE` (+ wide), Deployment `NAME READY UP-TO-DATE AVAILABLE AGE`,
 * ReplicaSet, Service `NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE`, ServiceAccount, Lease
 * `NAME HOLDER AGE`, Events. Kinds without a printer use the default `Name`/`Created At` columns.
 */
import { column, nameColumn, ageColumn } from './columns.js';
import type { TableColumnDefinition } from './columns.js';
import { ageOf } from './human-duration.js';

// Stored objects are read loosely here: a missing field is an empty cell, never an error.
type Obj = Record<string, any>;

export interface BuiltinPrinter {
  columns: TableColumnDefinition[];
  cells(obj: Obj, now: number): unknown[];
}

const age = (obj: Obj, now: number) => ageOf(obj['metadata']?.creationTimestamp, now);
const name = (obj: Obj): string => obj['metadata']?.name ?? '';
const count = (m: unknown): number => (m !== null && typeof m === 'object' ? Object.keys(m).length : 0);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const selectorString = (sel: unknown): string => {
  if (sel === null || typeof sel !== 'object') return '<none>';
  const s = sel as Obj;
  const parts: string[] = Object.entries((s['matchLabels'] ?? {}) as Record<string, string>).map(([k, v]) => `${k}=${v}`);
  for (const e of list(s['matchExpressions'])) {
    const values = list(e['values']).join(',');
    if (e['operator'] === 'In') parts.push(`${e['key']} in (${values})`);
    else if (e['operator'] === 'NotIn') parts.push(`${e['key']} notin (${values})`);
    else if (e['operator'] === 'Exists') parts.push(String(e['key']));
    else if (e['operator'] === 'DoesNotExist') parts.push(`!${e['key']}`);
  }
  return parts.length === 0 ? '<none>' : parts.join(',');
};
const mapSelector = (m: unknown): string => {
  const entries = Object.entries((m ?? {}) as Record<string, string>);
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${v}`).join(',');
};
const containersOf = (podSpec: Obj | undefined) => list(podSpec?.['containers']);
const joinOr = (values: string[], none = '<none>') => (values.length === 0 ? none : values.join(','));

const WIDE = { priority: 1 };

function podStatus(pod: Obj): string {
  let reason: string = pod['status']?.reason ?? pod['status']?.phase ?? '';
  if (pod['metadata']?.deletionTimestamp) return 'Terminating';
  for (const cs of list(pod['status']?.containerStatuses)) {
    if (cs['state']?.waiting?.reason) reason = cs['state'].waiting.reason;
    else if (cs['state']?.terminated?.reason) reason = cs['state'].terminated.reason;
  }
  return reason;
}

function servicePorts(svc: Obj): string {
  const ports = list(svc['spec']?.ports).map((p) => {
    const proto = p['protocol'] ?? 'TCP';
    return p['nodePort'] ? `${p['port']}:${p['nodePort']}/${proto}` : `${p['port']}/${proto}`;
  });
  return joinOr(ports);
}

function serviceExternalIp(svc: Obj): string {
  const type = svc['spec']?.type ?? 'ClusterIP';
  const external = list(svc['spec']?.externalIPs).map(String);
  if (type === 'ExternalName') return svc['spec']?.externalName ?? '<none>';
  if (type === 'LoadBalancer') {
    const ingress = list(svc['status']?.loadBalancer?.ingress).map((i) => i['ip'] ?? i['hostname']).filter(Boolean);
    const all = [...ingress, ...external];
    return all.length > 0 ? all.join(',') : '<pending>';
  }
  return joinOr(external);
}

function eventObject(ev: Obj): string {
  const ref = (ev['involvedObject'] ?? ev['regarding'] ?? {}) as Obj;
  return `${String(ref['kind'] ?? '').toLowerCase()}/${ref['name'] ?? ''}`;
}

function eventLastSeen(ev: Obj, now: number): string {
  const ts = ev['series']?.lastObservedTime ?? ev['lastTimestamp'] ?? ev['deprecatedLastTimestamp'] ?? ev['eventTime'] ?? ev['metadata']?.creationTimestamp;
  return ageOf(ts, now);
}

const eventPrinter: BuiltinPrinter = {
  columns: [
    column('Last Seen', 'string', 'Time when latest event occurred'),
    column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future.'),
    column('Reason', 'string', 'This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.'),
    column('Object', 'string', 'The object this Event is about.'),
    column('Message', 'string', 'A human-readable description of the status of this operation.'),
  ],
  cells: (ev, now) => [eventLastSeen(ev, now), ev['type'] ?? '', ev['reason'] ?? '', eventObject(ev), ev['message'] ?? ev['note'] ?? ''],
};

const PRINTERS: ReadonlyMap<string, BuiltinPrinter> = new Map<string, BuiltinPrinter>([
  ['/ConfigMap', {
    columns: [nameColumn(), column('Data', 'integer', 'Data contains the configuration data.'), ageColumn()],
    cells: (o, now) => [name(o), count(o['data']) + count(o['binaryData']), age(o, now)],
  }],
  ['/Secret', {
    columns: [nameColumn(), column('Type', 'string', 'Used to facilitate programmatic handling of secret data.'), column('Data', 'integer', 'Data contains the secret data.'), ageColumn()],
    cells: (o, now) => [name(o), o['type'] ?? 'Opaque', count(o['data']), age(o, now)],
  }],
  ['/Namespace', {
    columns: [nameColumn(), column('Status', 'string', 'The status of the namespace'), ageColumn()],
    cells: (o, now) => [name(o), o['status']?.phase ?? '', age(o, now)],
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
      const statuses = list(o['status']?.containerStatuses);
      const ready = statuses.filter((c) => c['ready'] === true).length;
      const restarts = statuses.reduce((n, c) => n + (Number(c['restartCount']) || 0), 0);
      const gates = list(o['spec']?.readinessGates);
      return [
        name(o), `${ready}/${containersOf(o['spec']).length}`, podStatus(o), String(restarts), age(o, now),
        o['status']?.podIP ?? '<none>', o['spec']?.nodeName ?? '<none>', o['status']?.nominatedNodeName ?? '<none>',
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
      name(o), o['spec']?.type ?? 'ClusterIP', o['spec']?.clusterIP || '<none>', serviceExternalIp(o), servicePorts(o), age(o, now), mapSelector(o['spec']?.selector),
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
      const containers = containersOf(o['spec']?.template?.spec);
      return [
        name(o), `${o['status']?.readyReplicas ?? 0}/${o['spec']?.replicas ?? 1}`, o['status']?.updatedReplicas ?? 0, o['status']?.availableReplicas ?? 0, age(o, now),
        containers.map((c) => c['name']).join(','), containers.map((c) => c['image']).join(','), selectorString(o['spec']?.selector),
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
      const containers = containersOf(o['spec']?.template?.spec);
      return [
        name(o), o['spec']?.replicas ?? 1, o['status']?.replicas ?? 0, o['status']?.readyReplicas ?? 0, age(o, now),
        containers.map((c) => c['name']).join(','), containers.map((c) => c['image']).join(','), selectorString(o['spec']?.selector),
      ];
    },
  }],
  ['coordination.k8s.io/Lease', {
    columns: [nameColumn(), column('Holder', 'string', 'holderIdentity contains the identity of the holder of a current lease.'), ageColumn()],
    cells: (o, now) => [name(o), o['spec']?.holderIdentity ?? '', age(o, now)],
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
