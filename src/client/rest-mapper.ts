/**
 * The REST mapper: GVK ↔ GVR from discovery (plural, scope, subresources, verbs, short names), handed
 * out as `ResourceDescriptor`s so callers can use them with the client directly. Group lists and
 * group-version resource lists are cached as they are first needed; a miss refetches what it needs
 * once (a CRD may have been installed since) — concurrent misses share that refetch — and only then
 * throws `UnknownResourceError`. Invariant: a mapping returned once stays valid until `reset()`.
 */
import {
  defineResource,
  parseGroupVersion,
  UnknownResourceError,
  type GroupVersionKind,
  type KubeObject,
  type ResourceDescriptor,
} from '../meta/index.js';
import { formatGVK } from '../meta/internal.js';
import type { APIGroup, APIResource, APIResourceList, DiscoveryClient } from './discovery.js';
import { isNotFound } from './errors.js';

/** What discovery says about one resource: its descriptor, names, verbs and subresources. */
export interface RestMapping {
  resource: ResourceDescriptor<KubeObject>;
  singularName: string;
  shortNames: readonly string[];
  categories: readonly string[];
  verbs: readonly string[];
  /** Subresource names (`status`, `scale`, …). */
  subresources: readonly string[];
}

/** A kind to map; without `version` the group's preferred version is used. */
export interface KindQuery {
  group: string;
  kind: string;
  version?: string;
}

/** A resource to map: plural, singular or short name; group and version optional (kubectl style). */
export interface ResourceQuery {
  resource: string;
  group?: string;
  version?: string;
}

/** Options of a `RestMapper`: the discovery client it asks. */
export interface RestMapperOptions {
  discovery: DiscoveryClient;
}

/** Maps kinds to resources and back from discovery, caching what it has read (controller-runtime's `RESTMapper`). */
export class RestMapper {
  readonly #discovery: DiscoveryClient;
  #groups: Promise<APIGroup[]> | undefined;
  readonly #lists = new Map<string, Promise<RestMapping[]>>();

  constructor({ discovery }: RestMapperOptions) {
    this.#discovery = discovery;
  }

  /** Forgets everything learned from discovery. */
  reset(): void {
    this.#groups = undefined;
    this.#lists.clear();
  }

  /** The mapping for a kind; refreshes discovery once on a miss, then throws `UnknownResourceError`. */
  async mappingFor(q: KindQuery | GroupVersionKind): Promise<RestMapping> {
    const find = async (): Promise<RestMapping | undefined> => {
      const gv = await this.#groupVersion(q.group, q.version);
      if (!gv) return undefined;
      return (await this.#list(gv)).find((m) => m.resource.kind === q.kind);
    };
    const what = formatGVK({ group: q.group, version: q.version ?? '<preferred>', kind: q.kind });
    return this.#withRefresh(find, what, q.group, q.version);
  }

  /** The descriptor for a kind (see `mappingFor`). */
  async resourceFor(q: KindQuery | GroupVersionKind): Promise<ResourceDescriptor<KubeObject>> {
    return (await this.mappingFor(q)).resource;
  }

  /** The mapping for a resource name, singular or short name (`deploy`, `deployments.apps`). */
  async kindFor(q: ResourceQuery): Promise<RestMapping> {
    const name = q.resource.toLowerCase();
    const find = async (): Promise<RestMapping | undefined> => {
      const groups = await this.#groupsList();
      for (const g of groups) {
        if (q.group !== undefined && g.name !== q.group) continue;
        const version = q.version ?? g.preferredVersion?.version ?? g.versions[0]?.version;
        if (!version || !g.versions.some((v) => v.version === version)) continue;
        const hit = (await this.#list(g.name ? `${g.name}/${version}` : version)).find(
          (m) => m.resource.plural === name || m.singularName === name || m.shortNames.includes(name),
        );
        if (hit) return hit;
      }
      return undefined;
    };
    const what = [q.resource, q.version, q.group].filter((x) => x !== undefined && x !== '').join('.');
    return this.#withRefresh(find, what, q.group, q.version);
  }

  async #withRefresh(
    find: () => Promise<RestMapping | undefined>,
    what: string,
    group: string | undefined,
    version: string | undefined,
  ): Promise<RestMapping> {
    let first: unknown;
    try {
      const hit = await find();
      if (hit) return hit;
    } catch (err) {
      first = err;
    }
    this.#invalidate(group, version);
    let hit: RestMapping | undefined;
    try {
      hit = await find();
    } catch (cause) {
      // A vanished group-version means the kind is gone; any other failure (network, 5xx) is not an answer.
      if (isNotFound(cause)) throw new UnknownResourceError(what, { cause });
      throw cause;
    }
    if (hit) return hit;
    throw new UnknownResourceError(what, first === undefined ? undefined : { cause: first });
  }

  /** Drops what a miss depended on: the group list and the affected resource lists. */
  #invalidate(group: string | undefined, version: string | undefined): void {
    this.#groups = undefined;
    for (const gv of [...this.#lists.keys()]) {
      const { group: g, version: v } = parseGroupVersion(gv);
      if ((group === undefined || g === group) && (version === undefined || v === version)) this.#lists.delete(gv);
    }
  }

  #groupsList(): Promise<APIGroup[]> {
    const p = (this.#groups ??= this.#discovery.serverGroups().then((l) => l.groups));
    p.catch(() => {
      if (this.#groups === p) this.#groups = undefined;
    });
    return p;
  }

  async #groupVersion(group: string, version: string | undefined): Promise<string | undefined> {
    const g = (await this.#groupsList()).find((x) => x.name === group);
    if (!g) return undefined;
    const v = version ?? g.preferredVersion?.version ?? g.versions[0]?.version;
    if (!v || !g.versions.some((x) => x.version === v)) return undefined;
    return group ? `${group}/${v}` : v;
  }

  #list(groupVersion: string): Promise<RestMapping[]> {
    let p = this.#lists.get(groupVersion);
    if (!p) {
      p = this.#discovery.serverResourcesForGroupVersion(groupVersion).then(mappingsOf);
      this.#lists.set(groupVersion, p);
      const mine = p;
      p.catch(() => {
        if (this.#lists.get(groupVersion) === mine) this.#lists.delete(groupVersion);
      });
    }
    return p;
  }
}

function mappingsOf(list: APIResourceList): RestMapping[] {
  const { group, version } = parseGroupVersion(list.groupVersion);
  const subs = new Map<string, string[]>();
  const mains: APIResource[] = [];
  for (const r of list.resources) {
    const slash = r.name.indexOf('/');
    if (slash === -1) mains.push(r);
    else {
      const parent = r.name.slice(0, slash);
      subs.set(parent, [...(subs.get(parent) ?? []), r.name.slice(slash + 1)]);
    }
  }
  return mains.map((r) => ({
    resource: defineResource({ group, version, kind: r.kind, plural: r.name, namespaced: r.namespaced }),
    singularName: r.singularName || r.kind.toLowerCase(),
    shortNames: r.shortNames ?? [],
    categories: r.categories ?? [],
    verbs: r.verbs,
    subresources: subs.get(r.name) ?? [],
  }));
}
