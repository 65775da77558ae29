/**
 * SharedInformerFactory: at most one informer per (resource, metadata-only or not, namespace, label
 * selector, field selector, shard selector), shared by everyone who asks, all started and awaited
 * together (client-go's `SharedInformerFactory`). Invariant: asking twice for the same collection
 * returns the same informer, so one list/watch and one cache serve every controller in the process;
 * a metadata-only view or a shard is a different collection with its own informer, so a reader of
 * the full kind never gets metadata or a subset; `start()` starts exactly the informers not started
 * yet, so informers requested later are started by the next call.
 */
import { isMetadataOnly, type Client } from '../client/index.js';
import { noopLogger, realClock, type Clock, type KubeObject, type Logger, type ResourceDescriptor } from '../meta/index.js';
import { createListerWatcher } from './list-watcher.js';
import { createLister, type Lister } from './lister.js';
import type { CacheMetricsProvider } from './metrics.js';
import { createSharedIndexInformer, type SharedIndexInformerOptions } from './shared-informer.js';
import type { IndexFunc, SharedIndexInformer } from './types.js';

export interface SharedInformerFactoryOptions {
  client: Client;
  clock?: Clock;
  logger?: Logger;
  metrics?: CacheMetricsProvider;
  /** Handlers' default resync period; 0 (default) = none. */
  defaultResyncMs?: number;
  /** Restricts every informer to one namespace unless it asks for another. */
  namespace?: string;
  /** Applied to every object of every informer before it is stored (e.g. drop managedFields). */
  transform?: (obj: KubeObject) => KubeObject;
  reflector?: SharedIndexInformerOptions<KubeObject>['reflector'];
}

export interface InformerForOptions<T extends KubeObject> {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Sharded list/watch (see `ListerWatcherOptions.shardSelector`): the informer holds only its shard. */
  shardSelector?: string;
  /** Indexes created with the informer (only when this call creates it; use `addIndexers` later). */
  indexers?: Record<string, IndexFunc<T>>;
  resyncMs?: number;
}

interface Entry {
  informer: SharedIndexInformer<KubeObject>;
  run?: Promise<void>;
}

export class SharedInformerFactory {
  readonly #o: SharedInformerFactoryOptions;
  readonly #entries = new Map<string, Entry>();

  constructor(o: SharedInformerFactoryOptions) {
    this.#o = o;
  }

  /**
   * The shared informer of this collection, created on first request. Pass `metadataOnly(resource)`
   * (from the client) for a metadata-only informer: its objects are `PartialObjectMetadata`.
   */
  informerFor<T extends KubeObject>(resource: ResourceDescriptor<T>, o: InformerForOptions<T> = {}): SharedIndexInformer<T> {
    const namespace = resource.namespaced ? (o.namespace ?? this.#o.namespace ?? '') : '';
    const labelSelector = o.labelSelector ?? '';
    const fieldSelector = o.fieldSelector ?? '';
    const shardSelector = o.shardSelector ?? '';
    const key = JSON.stringify([resource.group, resource.version, resource.plural, isMetadataOnly(resource), namespace, labelSelector, fieldSelector, shardSelector]);
    let entry = this.#entries.get(key);
    if (!entry) {
      const listerWatcher = createListerWatcher<T>({ client: this.#o.client, resource, namespace, labelSelector, fieldSelector, shardSelector });
      const informer = createSharedIndexInformer<T>({
        listerWatcher,
        clock: this.#o.clock ?? realClock,
        logger: this.#o.logger ?? noopLogger,
        metrics: this.#o.metrics,
        indexers: o.indexers,
        resyncMs: o.resyncMs ?? this.#o.defaultResyncMs ?? 0,
        transform: this.#o.transform as ((obj: T) => T) | undefined,
        reflector: this.#o.reflector,
      });
      entry = { informer: informer as unknown as SharedIndexInformer<KubeObject> };
      this.#entries.set(key, entry);
    }
    return entry.informer as unknown as SharedIndexInformer<T>;
  }

  /** A lister over the shared informer of this collection. */
  lister<T extends KubeObject>(resource: ResourceDescriptor<T>, o: InformerForOptions<T> = {}): Lister<T> {
    return createLister(this.informerFor(resource, o).getIndexer());
  }

  /** Starts every informer not started yet; they run until `signal` aborts. */
  start(signal: AbortSignal): void {
    for (const entry of this.#entries.values()) entry.run ??= entry.informer.run(signal);
  }

  /** Resolves when every started informer has synced; rejects with the signal's reason if it aborts first. */
  async waitForCacheSync({ signal }: { signal?: AbortSignal } = {}): Promise<void> {
    const started = [...this.#entries.values()].filter((e) => e.run);
    await Promise.all(started.map((e) => e.informer.waitForSync({ signal })));
  }

  /** Resolves once every started informer has stopped (after the `start` signal aborted). */
  async stopped(): Promise<void> {
    await Promise.all([...this.#entries.values()].map((e) => e.run));
  }
}
