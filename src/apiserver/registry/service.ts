/**
 * Services: the defaults of a real cluster (type ClusterIP, sessionAffinity None, TCP ports with
 * targetPort = port, single-stack IPv4, internalTrafficPolicy Cluster), a ClusterIP allocated from
 * 10.0.0.0/16, the next free one after the last given (10.0.0.1 belongs to `default/kubernetes`), unless headless (`None`),
 * node ports 30000–32767 for NodePort/LoadBalancer, and an immutable clusterIP. envtest's range is
 * the /24 this one starts with, which is full after 253 Services: too few for an operator at scale.
 * Invariant: no two stored Services hold the same ClusterIP or node port.
 */
import { ServiceResource, jsonEqual, type KubeObject } from '../../meta/index.js';
import { fieldCause, internalError, type FieldCause } from '../ground/index.js';
import { ageColumn, cells, column, nameColumn, type TablePrinter } from '../table/index.js';
import { Strategy, builtinVersion, type StoreReader, type VersionSpec } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

type Obj = Record<string, unknown>;
/** The service range 10.0.0.0/16: host `i` (1 ≤ i ≤ 65534) is 10.0.(i >> 8).(i & 255). */
const SERVICE_HOSTS = 65_534;
const serviceIp = (i: number): string => `10.0.${i >> 8}.${i & 255}`;
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;

const { at, text, list, name, age, orNone, mapSelector } = cells;
const WIDE = { priority: 1 };

function servicePorts(svc: Obj): string {
  return orNone(
    list(at(svc, 'spec', 'ports')).map((p) => {
      const proto = text(p['protocol'], 'TCP');
      return p['nodePort'] !== undefined ? `${String(p['port'])}:${String(p['nodePort'])}/${proto}` : `${String(p['port'])}/${proto}`;
    }),
  );
}

function serviceExternalIp(svc: Obj): string {
  const type = text(at(svc, 'spec', 'type'), 'ClusterIP');
  const external = (Array.isArray(at(svc, 'spec', 'externalIPs')) ? (at(svc, 'spec', 'externalIPs') as unknown[]) : []).map(String);
  if (type === 'ExternalName') return text(at(svc, 'spec', 'externalName'), '<none>');
  if (type === 'LoadBalancer') {
    const ingress = list(at(svc, 'status', 'loadBalancer', 'ingress'))
      .map((i) => text(i['ip'], text(i['hostname'])))
      .filter((s) => s !== '');
    const all = [...ingress, ...external];
    return all.length > 0 ? all.join(',') : '<pending>';
  }
  return orNone(external);
}

/** `kubectl get` columns, as kube-apiserver's printer for Services. */
const servicePrinter: TablePrinter = {
  columns: [
    nameColumn(),
    column('Type', 'string', 'type determines how the Service is exposed.'),
    column('Cluster-IP', 'string', 'clusterIP is the IP address of the service and is usually assigned randomly.'),
    column(
      'External-IP',
      'string',
      'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.',
    ),
    column('Port(s)', 'string', 'The list of ports that are exposed by this service.'),
    ageColumn(),
    column('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.', WIDE),
  ],
  cells: (o, now) => [
    name(o),
    text(at(o, 'spec', 'type'), 'ClusterIP'),
    text(at(o, 'spec', 'clusterIP'), '<none>'),
    serviceExternalIp(o),
    servicePorts(o),
    age(o, now),
    mapSelector(at(o, 'spec', 'selector')),
  ],
};

export class ServiceStrategy extends Strategy {
  readonly group = '';
  readonly kind = 'Service';
  override readonly printer = servicePrinter;
  readonly plural = 'services';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1', { status: true })];
  override readonly shortNames = ['svc'];
  override readonly categories = ['all'];
  override readonly nameRule = 'dns1035' as const;
  protected override readonly decodedFields = {
    spec: 'object',
    'spec.ports': 'array',
    'spec.ports[]': 'object',
    'spec.selector': 'object',
  } as const;
  protected override readonly fields = {
    'spec.clusterIP': (o: KubeObject) => (o.spec as Obj | undefined)?.clusterIP,
    'spec.type': (o: KubeObject) => (o.spec as Obj | undefined)?.type,
  };
  readonly #store: StoreReader;
  /** Where the search for a free ClusterIP starts (host 1 is the `kubernetes` Service's). */
  #nextHost = 2;

  constructor(store: StoreReader) {
    super();
    this.#store = store;
  }

  /**
   * The next free ClusterIP after the last one given, wrapping around the range. Checking one
   * candidate is a cheap pass over the Services, where building the set of every used address for
   * each create made 10,000 Services cost quadratic time (seconds per create at the end).
   */
  #allocateIp(): string {
    for (let tried = 1; tried < SERVICE_HOSTS; tried++) {
      const host = this.#nextHost;
      this.#nextHost = host >= SERVICE_HOSTS ? 2 : host + 1;
      const ip = serviceIp(host);
      if (!this.#ipTaken(ip)) return ip;
    }
    throw internalError('failed to allocate a serviceIP: range is full');
  }

  #ipTaken(ip: string): boolean {
    for (const s of this.#store.list(this.storageId)) if ((s.spec as Obj | undefined)?.clusterIP === ip) return true;
    return false;
  }

  #usedNodePorts(): Set<number> {
    const ports = new Set<number>();
    for (const s of this.#store.list(this.storageId)) {
      for (const p of ((s.spec as Obj | undefined)?.ports as Obj[] | undefined) ?? [])
        if (typeof p.nodePort === 'number') ports.add(p.nodePort);
    }
    return ports;
  }

  override prepareForCreate(obj: KubeObject): void {
    delete obj.status;
    obj.status = { loadBalancer: {} };
    const spec = (obj.spec ??= {}) as Obj;
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    const external = spec.type === 'ExternalName';
    if (!external) {
      spec.internalTrafficPolicy ??= 'Cluster';
      spec.ipFamilies ??= ['IPv4'];
      spec.ipFamilyPolicy ??= 'SingleStack';
      if (spec.clusterIP === undefined || spec.clusterIP === '') spec.clusterIP = this.#allocateIp();
      spec.clusterIPs = [spec.clusterIP];
    }
    const wantsNodePort = spec.type === 'NodePort' || spec.type === 'LoadBalancer';
    if (wantsNodePort && spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
    if (wantsNodePort) spec.externalTrafficPolicy ??= 'Cluster';
    const used = wantsNodePort ? this.#usedNodePorts() : undefined;
    let next = NODE_PORT_MIN;
    for (const p of (spec.ports as Obj[] | undefined) ?? []) {
      p.protocol ??= 'TCP';
      p.targetPort ??= p.port;
      if (used && p.nodePort === undefined) {
        while (used.has(next) && next <= NODE_PORT_MAX) next++;
        p.nodePort = next;
        used.add(next);
      }
    }
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    obj.status = old.status;
    const spec = (obj.spec ??= {}) as Obj;
    const oldSpec = (old.spec ?? {}) as Obj;
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    if (spec.type !== 'ExternalName') {
      if (spec.clusterIP === undefined || spec.clusterIP === '') spec.clusterIP = oldSpec.clusterIP;
      spec.clusterIPs ??= oldSpec.clusterIPs;
      spec.ipFamilies ??= oldSpec.ipFamilies;
      spec.ipFamilyPolicy ??= oldSpec.ipFamilyPolicy;
      spec.internalTrafficPolicy ??= oldSpec.internalTrafficPolicy ?? 'Cluster';
    }
    for (const p of (spec.ports as Obj[] | undefined) ?? []) {
      p.protocol ??= 'TCP';
      p.targetPort ??= p.port;
      const prev = ((oldSpec.ports as Obj[] | undefined) ?? []).find((o) => o.port === p.port && (o.protocol ?? 'TCP') === p.protocol);
      if (p.nodePort === undefined && prev?.nodePort !== undefined) p.nodePort = prev.nodePort;
    }
  }

  override generationChanged(): boolean {
    return false;
  }

  override validate(obj: KubeObject): FieldCause[] {
    const spec = (obj.spec ?? {}) as Obj;
    const out: FieldCause[] = [];
    const types = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];
    if (!types.includes(String(spec.type))) out.push(fieldCause.notSupported('spec.type', spec.type, types));
    const ports = (spec.ports as Obj[] | undefined) ?? [];
    if (ports.length === 0 && spec.type !== 'ExternalName' && spec.clusterIP !== 'None') out.push(fieldCause.required('spec.ports'));
    ports.forEach((p, i) => {
      if (typeof p.port !== 'number' || p.port < 1 || p.port > 65535)
        out.push(fieldCause.invalid(`spec.ports[${i}].port`, p.port, 'must be between 1 and 65535, inclusive'));
      if (ports.length > 1 && !p.name) out.push(fieldCause.required(`spec.ports[${i}].name`));
    });
    return out;
  }

  override validateUpdate(obj: KubeObject, old: KubeObject): FieldCause[] {
    const out = this.validate(obj);
    const a = (obj.spec as Obj | undefined)?.clusterIP;
    const b = (old.spec as Obj | undefined)?.clusterIP;
    if (b !== undefined && !jsonEqual(a, b) && (old.spec as Obj).type !== 'ExternalName') {
      out.push(fieldCause.invalid('spec.clusterIPs[0]', a, 'may not change once set'));
    }
    return out;
  }
}

/** Services; the strategy reads the other Services for cluster IPs and node ports. */
export const serviceKind: BuiltinKind = {
  strategy: (store) => new ServiceStrategy(store),
  resource: ServiceResource,
  protobuf: { message: 'Service' },
  bodies: [],
};
