/**
 * SharedInformerFactory: at most one informer per (resource, metadata-only or not, namespace, label
 * selector, field selector, shard selector, transform, stop signal), shared by everyone who asks, all
 * started and awaited together (client-go's `SharedInformerFactory`). Invariant: asking twice for the
 * same collection returns the same informer, so one list/watch and one cache serve every controller
 * in the process; a metadata-only view, a shard, a different transform or a different stop signal is
 * a different collection with its own informer, so a reader never gets objects shaped or bounded for
 * someone else; `start()` starts exactly the informers not started yet, so informers requested later
 * are started by the next call; an informer whose own signal aborted is stopped and no longer in the
 * table, so the next request builds a fresh one.
 */
import { type Client } from '../client/index.js';
import { isMetadataOnly } from '../client/internal.js';
import {
  InvalidOptionError,
  gvrOfResource,
  noopLogger,
  realClock,
  type Clock,
  type KubeObject,
  type Logger,
  type ResourceDescriptor,
} from '../meta/index.js';
import { formatGVR } from '../meta/internal.js';
import { createListerWatcher } from './list-watcher.js';
import { createLister, type Lister } from './lister.js';
import type { CacheMetricsProvider } from './metrics.js';
import { createSharedIndexInformer, type SharedIndexInformerOptions } from './shared-informer.js';
import type { IndexFunc, SharedIndexInformer } from './types.js';

/** How a factory builds every informer it makes: the client, clock, logger and metrics they share, and their defaults. */
export interface SharedInformerFactoryOptions {
  client: Client;
  clock?: Clock;
  logger?: Logger;
  metrics?: CacheMetricsProvider;
  /** Handlers' default resync period; 0 (default) = none. */
  defaultResyncMs?: number;
  /** Restricts every informer to one namespace unless it asks for another. */
  namespace?: string;
  /** Applied to every object of every informer that names no transform of its own (e.g. drop managedFields). */
  transform?: (obj: KubeObject) => KubeObject;
  /** Deep-freeze stored objects in every informer (see `SharedIndexInformerOptions.freeze`); default `freezeByDefault()`. */
  freeze?: boolean | undefined;
  reflector?: SharedIndexInformerOptions<KubeObject>['reflector'];
}

/**
 * Which collection `informerFor` asks for (namespace, selectors, metadata-only, shard) and how that one
 * informer differs from the factory's defaults (transform, its own stop signal); every field is part
 * of the collection key, so equal options share one informer.
 */
export interface InformerForOptions<T extends KubeObject> {
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  /** Sharded list/watch (see `ListerWatcherOptions.shardSelector`): the informer holds only its shard. */
  shardSelector?: string;
  /**
   * Applied to each object before it is stored, instead of the factory's transform. Compared by
   * identity: pass the same function to share the informer, another one gets its own.
   */
  transform?: ((obj: T) => T) | undefined;
  /**
   * Stops this one informer while the others run: when it aborts, the informer stops and leaves the
   * factory, so asking again builds a fresh one. Compared by identity, like `transform`: an informer
   * is shared only by callers passing the same signal (or none). Must not be aborted already.
   */
  signal?: AbortSignal;
  /** Indexes created with the informer (only when this call creates it; use `addIndexers` later). */
  indexers?: Record<string, IndexFunc<T>>;
  resyncMs?: number;
}

interface Entry {
  informer: SharedIndexInformer<KubeObject>;
  /** Names the collection in logs: `plural.version.group` and, when set, the namespace. */
  collection: string;
  signal: AbortSignal | undefined;
  run?: Promise<void>;
}

export class SharedInformerFactory {
  readonly #o: SharedInformerFactoryOptions;
  readonly #log: Logger;
  readonly #entries = new Map<string, Entry>();
  /** Runs not finished yet, including those of informers already dropped from the table. */
  readonly #running = new Set<Promise<void>>();
  /** Functions and signals cannot be serialized into a key; each gets a number for its identity. */
  readonly #identities = new WeakMap<object, number>();
  #nextIdentity = 1;

  constructor(o: SharedInformerFactoryOptions) {
    this.#o = o;
    this.#log = o.logger ?? noopLogger;
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
    const transform = (o.transform as ((obj: KubeObject) => KubeObject) | undefined) ?? this.#o.transform;
    const { signal } = o;
    const key = JSON.stringify([
      resource.group,
      resource.version,
      resource.plural,
      isMetadataOnly(resource),
      namespace,
      labelSelector,
      fieldSelector,
      shardSelector,
      this.#identity(transform),
      this.#identity(signal),
    ]);
    let entry = this.#entries.get(key);
    if (!entry) {
      if (signal?.aborted)
        throw new InvalidOptionError('informerFor.signal', 'is already aborted: an informer stopped before it starts would never sync');
      const listerWatcher = createListerWatcher<T>({
        client: this.#o.client,
        resource,
        namespace,
        labelSelector,
        fieldSelector,
        shardSelector,
      });
      const informer = createSharedIndexInformer<T>({
        listerWatcher,
        clock: this.#o.clock ?? realClock,
        logger: this.#log,
        metrics: this.#o.metrics,
        indexers: o.indexers,
        resyncMs: o.resyncMs ?? this.#o.defaultResyncMs ?? 0,
        transform: transform as ((obj: T) => T) | undefined,
        freeze: this.#o.freeze,
        reflector: this.#o.reflector,
      });
      const collection = formatGVR(gvrOfResource(resource)) + (namespace ? ` namespace=${namespace}` : '');
      entry = { informer: informer as unknown as SharedIndexInformer<KubeObject>, collection, signal };
      this.#entries.set(key, entry);
      // The key holds the signal's identity, so no other entry can sit under this key.
      signal?.addEventListener('abort', () => this.#entries.delete(key), { once: true });
    }
    return entry.informer as unknown as SharedIndexInformer<T>;
  }

  /** A lister over the shared informer of this collection. */
  lister<T extends KubeObject>(resource: ResourceDescriptor<T>, o: InformerForOptions<T> = {}): Lister<T> {
    return createLister(this.informerFor(resource, o).getIndexer());
  }

  /** Starts every informer not started yet; each runs until `signal` (or its own signal) aborts. */
  start(signal: AbortSignal): void {
    for (const entry of this.#entries.values()) entry.run ??= this.#run(entry, signal);
  }

  /** Resolves when every started informer has synced; rejects with the signal's reason if it aborts first. */
  async waitForCacheSync({ signal }: { signal?: AbortSignal | undefined } = {}): Promise<void> {
    const started = [...this.#entries.values()].filter((e) => e.run !== undefined);
    await Promise.all(started.map((e) => e.informer.waitForSync({ signal })));
  }

  /** Resolves once every started informer has stopped (after the `start` signal aborted). */
  async stopped(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }

  /**
   * An informer's run resolves when it stops and is not meant to reject; if it does (a bug), the
   * failure is logged here rather than left as an unhandled rejection that could end the process.
   */
  #run(entry: Entry, signal: AbortSignal): Promise<void> {
    const run = entry.informer
      .run(entry.signal ? AbortSignal.any([signal, entry.signal]) : signal)
      .catch((err: unknown) => this.#log.error({ resource: entry.collection, err }, 'informer run failed; it is stopped'));
    this.#running.add(run);
    void run.finally(() => this.#running.delete(run));
    return run;
  }

  #identity(x: object | undefined): number {
    if (x === undefined) return 0;
    let id = this.#identities.get(x);
    if (id === undefined) this.#identities.set(x, (id = this.#nextIdentity++));
    return id;
  }
}
