/**
 * The registry: which strategies are served under which group/version/resource. Built-ins are added
 * at start; CRDs add and remove the generic custom-resource strategy at run time. Discovery, OpenAPI
 * and the router all read from here, so what is advertised is exactly what is served.
 * Invariant: a (group, version, plural) maps to at most one strategy, and only while that version is
 * served.
 */
import type { ServedResource } from '../served-resource.js';
import type { Strategy } from './strategy.js';

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
  #generation = 0;

  /** Changes whenever what is served changes (discovery/OpenAPI caches key on it). */
  get generation(): number {
    return this.#generation;
  }

  add(s: Strategy): void {
    this.remove(s.id);
    this.#byId.set(s.id, s);
    for (const v of s.versions) if (v.served) this.#routes.set(`${s.group}/${v.name}/${s.plural}`, { strategy: s, version: v.name });
    this.#generation++;
  }

  remove(id: string): void {
    const s = this.#byId.get(id);
    if (!s) return;
    this.#byId.delete(id);
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
