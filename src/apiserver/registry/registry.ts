/**
 * The registry: which strategies are served under which group/version/resource. Built-ins are added
 * at start; CRDs add and remove the generic custom-resource strategy at run time. Discovery, OpenAPI
 * and the router all read from here, so what is advertised is exactly what is served.
 * Invariant: a (group, version, plural) maps to at most one strategy, and only while that version is
 * served. Built-ins come as records (`builtin-kind.ts`), and the protobuf bodies the server decodes
 * are made from the records registered, so a kind's protobuf entry is where the kind is.
 */
import { ProtobufBodies } from '../protobuf/index.js';
import type { ServedResource } from '../served-resource.js';
import { checkBuiltinKind, protobufKindsOf, type BuiltinKind } from './builtin-kind.js';
import type { Strategy, StoreReader } from './strategy.js';
import { servesBuiltin } from '../versions/index.js';

export interface Route {
  strategy: Strategy;
  version: string;
}

/** Built-in groups in the order the real server advertises them (legacy core is separate). */
const GROUP_ORDER = [
  '',
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'autoscaling',
  'batch',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
];

/** Kubernetes version priority: GA > beta > alpha, then higher numbers; others alphabetical last. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string): [number, number, number] | undefined => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    return [m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1, Number(m[1]), Number(m[3] ?? 0)];
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa && pb) {
    for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pb[i]! - pa[i]!;
    return 0;
  }
  if (pa) return -1;
  if (pb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export class Registry {
  readonly #routes = new Map<string, Route>();
  readonly #byId = new Map<string, Strategy>();
  readonly #kinds = new Map<string, BuiltinKind>();
  #protobuf: ProtobufBodies | undefined;
  #generation = 0;

  /** Changes whenever what is served changes (discovery/OpenAPI caches key on it). */
  get generation(): number {
    return this.#generation;
  }

  /** Serves a strategy at its served versions that `serves` keeps. */
  add(s: Strategy, serves: (version: string) => boolean = () => true): void {
    this.remove(s.id);
    this.#byId.set(s.id, s);
    for (const v of s.versions)
      if (v.served && serves(v.name)) this.#routes.set(`${s.group}/${v.name}/${s.plural}`, { strategy: s, version: v.name });
    this.#generation++;
  }

  /**
   * Serves a built-in kind from its record (its strategy made with `store`) at the versions the
   * Kubernetes minor serves (`versions/`); a kind the minor serves at no version is not registered.
   */
  addKind(record: BuiltinKind, store: StoreReader, kubernetesMinor: number): void {
    const s = record.strategy(store);
    checkBuiltinKind(record, s);
    const serves = (version: string): boolean => servesBuiltin(s.group, version, s.plural, kubernetesMinor);
    if (!s.versions.some((v) => v.served && serves(v.name))) return;
    this.add(s, serves);
    this.#kinds.set(s.id, record);
    this.#protobuf = undefined;
  }

  /** The record a built-in kind was registered from (undefined for custom resources). */
  kindRecord(id: string): BuiltinKind | undefined {
    return this.#kinds.get(id);
  }

  /**
   * The protobuf request bodies of the registered kinds, made on first use after a kind is added (a
   * server that is never sent protobuf never makes it); a record naming a message no table defines
   * throws here.
   */
  get protobuf(): ProtobufBodies {
    if (this.#protobuf === undefined) {
      const kinds = [...this.#kinds].flatMap(([id, record]) => protobufKindsOf(record, this.#byId.get(id)!));
      const tables = [...this.#kinds.values()].flatMap((record) => record.protobuf?.tables ?? []);
      this.#protobuf = new ProtobufBodies(kinds, tables);
    }
    return this.#protobuf;
  }

  remove(id: string): void {
    const s = this.#byId.get(id);
    if (!s) return;
    this.#byId.delete(id);
    if (this.#kinds.delete(id)) this.#protobuf = undefined;
    for (const [k, r] of this.#routes) if (r.strategy === s) this.#routes.delete(k);
    this.#generation++;
  }

  byId(id: string): Strategy | undefined {
    return this.#byId.get(id);
  }

  lookup(group: string, version: string, plural: string): Route | undefined {
    return this.#routes.get(`${group}/${version}/${plural}`);
  }

  /** Whether any resource is served under group/version. */
  servesGroupVersion(group: string, version: string): boolean {
    for (const r of this.#routes.values()) if (r.strategy.group === group && r.version === version) return true;
    return false;
  }

  /** Groups in advertised order, each with its served versions, preferred (highest priority) first. */
  groups(): { group: string; versions: string[] }[] {
    const byGroup = new Map<string, Set<string>>();
    for (const r of this.#routes.values()) {
      const g = r.strategy.group;
      if (!byGroup.has(g)) byGroup.set(g, new Set());
      byGroup.get(g)!.add(r.version);
    }
    const rank = (g: string): number => {
      const i = GROUP_ORDER.indexOf(g);
      return i === -1 ? GROUP_ORDER.length : i;
    };
    return [...byGroup.entries()]
      .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
      .map(([group, vs]) => ({ group, versions: [...vs].sort(compareVersions) }));
  }

  /** Served resources of one group/version, sorted by plural. */
  resources(group: string, version: string): ServedResource[] {
    const out: ServedResource[] = [];
    for (const r of this.#routes.values()) if (r.strategy.group === group && r.version === version) out.push(r.strategy.served(version));
    return out.sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
  }

  /** Every served (group, version, resource). */
  allResources(): ServedResource[] {
    return this.groups().flatMap(({ group, versions }) => versions.flatMap((v) => this.resources(group, v)));
  }

  strategies(): Strategy[] {
    return [...this.#byId.values()];
  }
}
