/**
 * The manager's shared informer cache: one informer per resource for the whole process, created on
 * first use (`informerFor`), configured once from the cache options (namespaces, label and field
 * selectors, transform, resync), and started with the cache runnable group — or at once when
 * created after the group started. It also answers the split client's synchronous reads.
 *
 * Every informer comes from one `SharedInformerFactory` of the cache layer, which builds and runs
 * them: each kind's transform goes with its informer, a kind cached in several namespaces is one
 * factory informer per namespace behind a multi-namespace view, and a shard member is a factory
 * informer with a stop signal of its own, so a shard given up stops its watch while the rest run on.
 *
 * Field indexes follow controller-runtime: index `field:<name>`, each value stored as
 * `<namespace>/<value>` and `__all_namespaces/<value>` (cluster-scoped objects only the latter), so
 * `list({ matchingFields })` works within one namespace or across all.
 *
 * With sharding, each namespaced kind's informer is a `ShardedInformer` holding only the shards set
 * by `setOwnedShards` (one sharded list/watch per owned shard); cluster-scoped kinds are whole. A
 * newly owned shard's objects reach the controllers only at `deliverShard`, once it synced.
 *
 * Invariants: no I/O before `start`; reads never touch the network and return the informers' frozen
 * objects (zero copy); a read of a kind whose informer has not synced throws `CacheNotSyncedError`
 * instead of returning a partial answer; a read in a namespace of a shard not owned throws
 * `ShardNotOwnedError`, and one in an owned shard needs only that shard synced.
 */
import {
  InvalidOptionError,
  gvrOfResource,
  keyOf,
  noopLogger,
  parseLabelSelector,
  type Clock,
  type KubeObject,
  type Logger,
  type NamespacedName,
  type ResourceDescriptor,
} from '../../meta/index.js';
import { formatGVR, untilAborted, whenAborted } from '../../meta/internal.js';
import { NAMESPACE_INDEX, SharedInformerFactory, type IndexFunc, type SharedIndexInformer } from '../../cache/index.js';
import type { Client } from '../../client/index.js';
import { CacheNotSyncedError, ShardNotOwnedError } from './errors.js';
import { cacheTransform } from './managed-fields.js';
import { multiNamespaceInformer } from './multi-namespace-informer.js';
import { ShardedInformer } from './sharded-informer.js';
import { namespaceSharder, namespaceShardSelector, shardRanges, type HashRange } from '../sharding/index.js';

/** Which objects of a kind the cache holds, and how they are stored. */
export interface CacheResourceOptions {
  /**
   * Watch only these namespaces (absent or empty: all). Several namespaces mean one watch each, so
   * RBAC on just those namespaces suffices. An error on a cluster-scoped kind in `byResource`.
   */
  namespaces?: readonly string[];
  labelSelector?: string;
  fieldSelector?: string;
  /** Applied to each object before it is frozen and stored (after `managedFields` were dropped, unless kept). */
  transform?: Transform;
  /** Keep `metadata.managedFields` in the cache; default false (dropped: see managed-fields.ts). */
  keepManagedFields?: boolean;
  /** Informer resync: the cache is re-delivered to handlers as same-object updates this often; 0 = never. */
  syncPeriodMs?: number;
}

/** How the manager's cache watches: namespaces, selectors, transforms and resync, for all kinds or per kind. */
export interface CacheOptions {
  /** Applied to every kind, field by field, unless `byResource` sets the field. */
  defaults?: CacheResourceOptions;
  byResource?: ReadonlyArray<{ resource: ResourceDescriptor } & CacheResourceOptions>;
  /**
   * Deep-freeze cached objects, so a write to one throws: default on unless `NODE_ENV` is
   * `production` (`freezeByDefault`); `TestEnv` managers always freeze. See docs/cache.md.
   */
  freeze?: boolean;
}

type Transform = (obj: KubeObject) => KubeObject;

/** controller-runtime's `SyncPeriod` default: 10 hours. */
export const DEFAULT_SYNC_PERIOD_MS = 10 * 60 * 60 * 1000;

/** Options for a cached list: a namespace, a label selector and exact matches on field indexes. */
export interface CacheListOptions {
  namespace?: string | undefined;
  labelSelector?: string;
  /** `{ <field index name>: value }`; every entry must match (each must have been added with `indexField`). */
  matchingFields?: Readonly<Record<string, string>>;
}

const ALL_NAMESPACES = '__all_namespaces';
/** Descriptors are frozen values, so their map key is computed once each (reads are a hot path). */
const resourceKeys = new WeakMap<ResourceDescriptor, string>();
function resourceKey(r: ResourceDescriptor): string {
  let k = resourceKeys.get(r);
  if (k === undefined) resourceKeys.set(r, (k = formatGVR(gvrOfResource(r))));
  return k;
}

interface Entry {
  readonly resource: ResourceDescriptor;
  readonly informer: SharedIndexInformer<KubeObject>;
  /** Field name → its index name (`field:<name>`). */
  readonly fieldIndexes: Map<string, string>;
  /** The namespaces the informer watches; empty = all. */
  readonly namespaces: ReadonlySet<string>;
}

export class InformerCache {
  readonly #log: Logger;
  readonly #defaults: CacheResourceOptions;
  readonly #byResource: ReadonlyMap<string, CacheResourceOptions>;
  readonly #entries = new Map<string, Entry>();
  readonly #factory: SharedInformerFactory;
  /** Runs of the sharded informers (their members run in the factory; these only wait for it). */
  readonly #runs = new Set<Promise<void>>();
  readonly #sharding: { ranges: HashRange[]; shardOf: (namespace: string) => number } | undefined;
  readonly #sharded = new Map<ShardedInformer<KubeObject>, ResourceDescriptor>();
  #owned: ReadonlySet<number> = new Set();
  readonly #shardOwner: (shard: number) => string | undefined;
  #signal: AbortSignal | undefined;

  /**
   * `shards`: split namespaced kinds into that many namespace shards (the manager's sharding);
   * `shardOwner` names the replica owning a shard, for the error of a read in a shard not owned.
   */
  constructor(options: {
    client: Client;
    clock: Clock;
    logger?: Logger;
    cache?: CacheOptions;
    shards?: number | undefined;
    shardOwner?: (shard: number) => string | undefined;
  }) {
    this.#shardOwner = options.shardOwner ?? (() => undefined);
    this.#log = options.logger ?? noopLogger;
    this.#factory = new SharedInformerFactory({
      client: options.client,
      clock: options.clock,
      logger: this.#log,
      freeze: options.cache?.freeze,
    });
    this.#defaults = options.cache?.defaults ?? {};
    this.#byResource = new Map((options.cache?.byResource ?? []).map(({ resource, ...o }) => [resourceKey(resource), o]));
    if (options.shards !== undefined) {
      const ranges = shardRanges(options.shards);
      this.#sharding = { ranges, shardOf: namespaceSharder(ranges) };
    }
  }

  /**
   * Makes every sharded informer, present and future, hold exactly the `owned` shards: stops the
   * watches of the others and starts the missing ones. Resolves once the new ones synced.
   */
  async setOwnedShards(owned: ReadonlySet<number>): Promise<void> {
    this.#owned = new Set(owned);
    const kinds = [...this.#sharded.keys()].map((i) => i.setShards(this.#owned, { deliver: 'when-told' }));
    await untilAborted(Promise.all(kinds), this.#signal);
  }

  /** Resolves once every sharded informer's member of `shard` synced; rejects if `signal` aborts first. */
  async waitForShard(shard: number, signal: AbortSignal): Promise<void> {
    await untilAborted(Promise.all([...this.#sharded.keys()].map((i) => i.waitForShard(shard))), signal);
  }

  /** Hands the synced store of `shard` to the controllers' handlers (as adds), then its live events. */
  deliverShard(shard: number): void {
    for (const i of this.#sharded.keys()) i.deliverShard(shard);
  }

  /** The shared informer of `resource`, created on first use (started at once if the cache runs). */
  informerFor<T extends KubeObject>(resource: ResourceDescriptor<T>): SharedIndexInformer<T> {
    return this.#entry(resource).informer as unknown as SharedIndexInformer<T>;
  }

  /** Adds a field index `field` on `resource`; values are namespaced as controller-runtime does. */
  indexField<T extends KubeObject>(resource: ResourceDescriptor<T>, field: string, extract: (obj: T) => readonly string[]): void {
    if (!field) throw new InvalidOptionError('indexField.field', 'must not be empty');
    const entry = this.#entry(resource);
    const fn: IndexFunc<KubeObject> = (obj) => {
      const values = extract(obj as T);
      const ns = obj.metadata.namespace ?? '';
      if (ns === '') return values.map((v) => `${ALL_NAMESPACES}/${v}`);
      return values.flatMap((v) => [`${ns}/${v}`, `${ALL_NAMESPACES}/${v}`]);
    };
    const indexName = `field:${field}`;
    entry.informer.addIndexers({ [indexName]: fn });
    entry.fieldIndexes.set(field, indexName);
  }

  /** True when every informer created so far has synced (the readiness check). */
  synced(): boolean {
    return [...this.#entries.values()].every((e) => e.informer.hasSynced());
  }

  /** Kinds whose informers have not synced yet, for messages. */
  unsynced(): string[] {
    return [...this.#entries.values()].filter((e) => !e.informer.hasSynced()).map((e) => e.resource.kind);
  }

  /** Waits until every informer created so far has synced. */
  async waitForSync(options: { signal?: AbortSignal | undefined } = {}): Promise<void> {
    // One abort listener for every kind (eleven kinds each listening would warn MaxListenersExceededWarning).
    await untilAborted(Promise.all([...this.#entries.values()].map((e) => e.informer.waitForSync())), options.signal);
  }

  /** Runs every informer, present and future, until `signal` aborts; resolves when all stopped. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#signal) throw new InvalidOptionError('cache', 'the cache was already started');
    this.#signal = signal;
    this.#factory.start(signal);
    for (const [sharded, resource] of this.#sharded) this.#runSharded(resource, sharded);
    await whenAborted(signal);
    // Informers created while we waited were started too; wait for every one of them.
    while (this.#runs.size > 0) await Promise.all([...this.#runs]);
    await this.#factory.stopped();
  }

  /** The cached object, or undefined. Throws `CacheNotSyncedError` while the kind's informer syncs. */
  get<T extends KubeObject>(resource: ResourceDescriptor<T>, nn: NamespacedName): T | undefined {
    const { informer } = this.#synced(resource, nn.namespace);
    const key = resource.namespaced ? keyOf(nn) : nn.name;
    return informer.getIndexer().getByKey(key) as T | undefined;
  }

  /** Cached objects matching every option (frozen, in no particular order). */
  list<T extends KubeObject>(resource: ResourceDescriptor<T>, options: CacheListOptions = {}): T[] {
    const ns = resource.namespaced ? (options.namespace ?? '') : '';
    const entry = this.#synced(resource, ns);
    const indexer = entry.informer.getIndexer();
    const scope = ns === '' ? ALL_NAMESPACES : ns;
    let items: KubeObject[] | undefined;
    const matching = options.matchingFields;
    for (const field in matching) {
      const indexName = entry.fieldIndexes.get(field);
      if (indexName === undefined) {
        throw new InvalidOptionError(
          `matchingFields.${field}`,
          `no field index named ${JSON.stringify(field)} on ${resource.kind}; add it with indexField`,
        );
      }
      const value = `${scope}/${matching[field]}`;
      if (items === undefined) {
        items = indexer.byIndex(indexName, value);
      } else {
        const keys = new Set(indexer.indexKeys(indexName, value));
        items = items.filter((o) => keys.has(keyOf({ namespace: o.metadata.namespace ?? '', name: o.metadata.name ?? '' })));
      }
    }
    items ??= ns !== '' ? indexer.byIndex(NAMESPACE_INDEX, ns) : indexer.list();
    if (options.labelSelector) {
      const selector = parseLabelSelector(options.labelSelector);
      items = items.filter((o) => selector.matches(o.metadata.labels));
    }
    return items as T[];
  }

  /**
   * What the cache can say about one object without creating an informer or reading through the
   * network (for `explain`): whether it watches the kind (and that namespace), whether it synced, and
   * the cached object.
   */
  peek<T extends KubeObject>(
    resource: ResourceDescriptor<T>,
    nn: NamespacedName,
  ): { informer: 'none' | 'outside-namespaces' | 'syncing' } | { informer: 'synced'; object: T | undefined } {
    const entry = this.#entries.get(resourceKey(resource));
    if (!entry) return { informer: 'none' };
    if (resource.namespaced && entry.namespaces.size > 0 && !entry.namespaces.has(nn.namespace ?? ''))
      return { informer: 'outside-namespaces' };
    if (!this.#readable(entry, nn.namespace)) return { informer: 'syncing' };
    const key = resource.namespaced ? keyOf(nn) : nn.name;
    return { informer: 'synced', object: entry.informer.getIndexer().getByKey(key) as T | undefined };
  }

  /** Whether a read in `namespace` can be answered: its shard synced when sharded, else the whole informer. */
  #readable(entry: Entry, namespace: string | undefined): boolean {
    const { informer } = entry;
    if (!(informer instanceof ShardedInformer) || !namespace) return informer.hasSynced();
    const shard = this.#sharding!.shardOf(namespace);
    return this.#owned.has(shard) ? informer.shardSynced(shard) : informer.hasSynced();
  }

  /** The namespaces the informer of `resource` watches, sorted; empty = all (or cluster-scoped). */
  watchedNamespaces(resource: ResourceDescriptor): string[] {
    return [...this.#entry(resource).namespaces].sort();
  }

  /** The kinds the cache has informers for. */
  resources(): ResourceDescriptor[] {
    return [...this.#entries.values()].map((e) => e.resource);
  }

  /**
   * The synced informer of a kind. A read in a namespace the cache does not watch throws: answering
   * "absent" would tell a reconciler that existing objects are gone. '' (all) reads what is cached.
   */
  #synced<T extends KubeObject>(resource: ResourceDescriptor<T>, namespace: string | undefined): Entry {
    const entry = this.#entry(resource);
    const { informer, namespaces } = entry;
    if (resource.namespaced && namespaces.size > 0 && namespace && !namespaces.has(namespace)) {
      throw new InvalidOptionError(
        'namespace',
        `the cache of ${resource.kind} holds only namespaces ${[...namespaces].join(', ')}, not ${JSON.stringify(namespace ?? '')}; read it with apiReader`,
      );
    }
    if (informer instanceof ShardedInformer && namespace) {
      const shard = this.#sharding!.shardOf(namespace);
      if (!this.#owned.has(shard)) throw new ShardNotOwnedError(resource.kind, namespace, shard, this.#shardOwner(shard));
    }
    if (!this.#readable(entry, namespace)) throw new CacheNotSyncedError(resource.kind);
    return entry;
  }

  #entry(resource: ResourceDescriptor): Entry {
    const k = resourceKey(resource);
    const existing = this.#entries.get(k);
    if (existing) return existing;
    const o = { ...this.#defaults, ...this.#byResource.get(k) };
    if (!resource.namespaced && (this.#byResource.get(k)?.namespaces?.length ?? 0) > 0) {
      throw new InvalidOptionError(`cache.byResource.${resource.kind}.namespaces`, 'a cluster-scoped kind has no namespaces');
    }
    const sharding = resource.namespaced ? this.#sharding : undefined;
    if (sharding && (o.namespaces?.length ?? 0) > 0) {
      throw new InvalidOptionError(
        `cache.namespaces`,
        `a sharded manager watches the namespaces of its shards; ${resource.kind} cannot also be limited to namespaces`,
      );
    }
    const namespaces = resource.namespaced ? [...new Set(o.namespaces ?? [])] : [];
    const resyncMs = o.syncPeriodMs ?? DEFAULT_SYNC_PERIOD_MS;
    let informer: SharedIndexInformer<KubeObject>;
    /** Starts the new informer in a running cache. */
    let start: (signal: AbortSignal) => void;
    const selection = { labelSelector: o.labelSelector, fieldSelector: o.fieldSelector, transform: cacheTransform(o), resyncMs };
    if (sharding) {
      const sharded = new ShardedInformer<KubeObject>({
        factory: this.#factory,
        resource,
        member: (shard) => ({ ...selection, shardSelector: namespaceShardSelector([sharding.ranges[shard]!]) }),
        shardOf: sharding.shardOf,
      });
      this.#sharded.set(sharded, resource);
      sharded.setShards(this.#owned).catch((err: unknown) => this.#log.error({ kind: resource.kind, err }, 'shard informers did not sync'));
      informer = sharded;
      start = () => this.#runSharded(resource, sharded);
    } else {
      const member = (namespace: string | undefined) => this.#factory.informerFor<KubeObject>(resource, { ...selection, namespace });
      informer = namespaces.length <= 1 ? member(namespaces[0]) : multiNamespaceInformer(new Map(namespaces.map((ns) => [ns, member(ns)])));
      start = (signal) => this.#factory.start(signal);
    }
    const entry: Entry = { resource, informer, fieldIndexes: new Map(), namespaces: new Set(namespaces) };
    this.#entries.set(k, entry);
    this.#log.debug({ resource: k }, 'informer created');
    if (this.#signal && !this.#signal.aborted) start(this.#signal);
    return entry;
  }

  #runSharded(resource: ResourceDescriptor, sharded: ShardedInformer<KubeObject>): void {
    const run = sharded.run(this.#signal!).catch((err: unknown) => {
      this.#log.error({ kind: resource.kind, err }, 'informer stopped with an error');
    });
    this.#runs.add(run);
    void run.finally(() => this.#runs.delete(run));
  }
}
