/**
 * SharedIndexInformer: one list/watch of a collection, one indexed store, many handlers.
 *
 *   Reflector ──▶ RealFIFO ──drain──▶ process(delta) ──▶ IndexedStore (write)
 *                (transform,                 │
 *                 deep-freeze)               └──▶ distribute ──▶ ProcessorListener × N ──▶ handlers
 *
 * `process` applies each delta to the store and then hands the matching notification to every
 * listener's buffer, synchronously, so the store and the notifications can never disagree and a
 * reader never sees a half-applied relist. A relist (`ReplacedAll`) is applied as in client-go: keys
 * missing from the new list become `DeletedFinalStateUnknown` tombstones carrying the last cached
 * state, the store is replaced in one step, then deletes fire, then adds/updates in list order.
 * An update whose resourceVersion did not change (a duplicate event, an unchanged object in a relist)
 * carries no news and is not delivered. A resync (`SyncAll`) re-delivers every cached object as
 * `onUpdate(obj, obj)` to exactly the listeners that were due when it was queued; because it is
 * applied in FIFO order, it never carries state older than an event queued before it.
 *
 * Invariants: `hasSynced()` turns true only after the first population has been applied to the
 * store; a registration's `hasSynced()` only after that and after its handler has seen every
 * initial-list add; nothing a handler does (throw, reject, block) stops the informer.
 */
import {
  deepFreezeFresh, noopLogger, realClock, requireDuration, type Clock, type KubeObject, type Logger, type Timer,
} from '../meta/index.js';
import { InformerStoppedError } from './errors.js';
import type { Delta } from './fifo.js';
import { RealFIFO } from './fifo.js';
import { IndexedStore } from './indexer.js';
import type { ListerWatcher } from './list-watcher.js';
import { noopCacheMetricsProvider, resourceVersionGaugeValue, type CacheMetricsProvider, type GaugeMetric, type HistogramMetric } from './metrics.js';
import { ProcessorListener, type Notification } from './processor-listener.js';
import { Reflector, type ReflectorOptions } from './reflector.js';
import { deletedFinalStateUnknown, isDeletedFinalStateUnknown } from './tombstone.js';
import type {
  DeletedFinalStateUnknown, HandlerRegistration, IndexFunc, Indexer, ReflectorStatus, ResourceEventHandler, SharedIndexInformer,
} from './types.js';

export interface SharedIndexInformerOptions<T extends KubeObject> {
  listerWatcher: ListerWatcher<T>;
  /** Names the informer in logs and metrics; default the ListerWatcher's description. */
  name?: string;
  clock?: Clock;
  logger?: Logger;
  metrics?: CacheMetricsProvider;
  indexers?: Record<string, IndexFunc<T>>;
  /** Default resync period of handlers (re-delivery of the cache as same-object updates); 0 = none. */
  resyncMs?: number;
  /** Applied to every object before it is frozen and stored, e.g. to drop `metadata.managedFields`. */
  transform?: (obj: T) => T;
  /** List/watch tuning passed to the reflector. */
  reflector?: Pick<ReflectorOptions<T>, 'pageSize' | 'watchList' | 'backoff' | 'minWatchTimeoutMs' | 'inactivityTimeoutMs' | 'random'>;
}

export interface AddEventHandlerOptions {
  /** This handler's resync period; default the informer's. Values in (0, 1 s) become 1 s. */
  resyncMs?: number;
  /** Names the handler in logs and metrics; default `handler-<n>`. */
  name?: string;
}

/** Deltas applied per round before the processing loop lets the event loop breathe. */
const BATCH = 1000;
const MIN_RESYNC_MS = 1000;

export function createSharedIndexInformer<T extends KubeObject>(o: SharedIndexInformerOptions<T>): SharedIndexInformer<T> {
  return new DefaultSharedIndexInformer(o);
}

class DefaultSharedIndexInformer<T extends KubeObject> implements SharedIndexInformer<T> {
  readonly name: string;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #metrics: CacheMetricsProvider;
  readonly #indexer: IndexedStore<T>;
  readonly #fifo: RealFIFO<T>;
  readonly #reflector: Reflector<T>;
  readonly #initialSyncSeconds: HistogramMetric;
  readonly #objectsGauge: GaugeMetric;
  readonly #rvGauge: GaugeMetric;

  #listeners: ProcessorListener<T>[] = [];
  /** The listeners due at each queued `SyncAll`, oldest first (the FIFO keeps the deltas in the same order). */
  #pendingSyncs: ProcessorListener<T>[][] = [];
  #handlerSeq = 0;
  /** The informer's `resyncMs`: the period of handlers that ask for none of their own. */
  readonly #defaultResyncMs: number;
  /** How often due resyncs are looked for: the shortest period asked for before start. */
  #resyncCheckMs: number;
  #resyncTimer: Timer | undefined;
  #drainScheduled = false;
  #started = false;
  #stopped = false;
  #synced = false;
  #startedAtMs = 0;
  /** Pending `waitForSync` calls: settled with `undefined` on sync, or with the error when the informer stops first. */
  #syncWaiters = new Set<(error?: Error) => void>();

  constructor(o: SharedIndexInformerOptions<T>) {
    this.name = o.name ?? o.listerWatcher.description;
    this.#clock = o.clock ?? realClock;
    this.#log = (o.logger ?? noopLogger).child({ informer: this.name });
    this.#metrics = o.metrics ?? noopCacheMetricsProvider;
    this.#defaultResyncMs = o.resyncMs ?? 0;
    requireDuration('resyncMs', this.#defaultResyncMs);
    this.#resyncCheckMs = this.#defaultResyncMs;
    this.#indexer = new IndexedStore<T>({
      indexers: o.indexers,
      onIndexError: (index, key, error) => this.#log.error({ index, key, error }, 'index function failed; object stored without values for that index'),
    });
    this.#fifo = new RealFIFO<T>({
      onNonEmpty: this.#onNonEmpty,
      transform: o.transform,
      freeze: this.#freeze,
      onRejected: (error, obj) => this.#log.error({ name: obj?.metadata?.name, namespace: obj?.metadata?.namespace, error }, 'object left out of the relist: transform or key failed'),
    });
    this.#reflector = new Reflector<T>({
      ...o.reflector,
      listerWatcher: o.listerWatcher,
      store: this.#fifo,
      clock: this.#clock,
      name: this.name,
      logger: o.logger,
      metrics: this.#metrics,
    });
    this.#initialSyncSeconds = this.#metrics.newInitialSyncDurationMetric(this.name);
    this.#objectsGauge = this.#metrics.newStoreObjectsMetric(this.name);
    this.#rvGauge = this.#metrics.newLastSyncedResourceVersionMetric(this.name);
  }

  /**
   * Freezes an incoming object, unless the store already holds this key at the same resourceVersion:
   * then that (frozen, equal) object is reused. A relist after a reconnect thus freezes and allocates
   * only what changed, and an unchanged object keeps its identity (`old === new`).
   */
  readonly #freeze = (obj: T, key: string): T => {
    const rv = obj.metadata?.resourceVersion;
    if (rv) {
      const prev = this.#indexer.getByKey(key);
      if (prev !== undefined && prev.metadata.resourceVersion === rv) return prev;
    }
    return deepFreezeFresh(obj) as T;
  };

  // ---- handlers ----------------------------------------------------------------------------------

  addEventHandler(handler: ResourceEventHandler<T>, options: AddEventHandlerOptions = {}): HandlerRegistration {
    if (this.#stopped) throw new InformerStoppedError(this.name, 'add an event handler');
    // The informer's default, not the check period, which a shorter handler may have lowered (client-go).
    let requested = options.resyncMs ?? this.#defaultResyncMs;
    requireDuration('resyncMs', requested);
    if (requested > 0 && requested < MIN_RESYNC_MS) requested = MIN_RESYNC_MS;
    // Before start the check period follows the shortest request (0 counts as "never"); after start,
    // requests shorter than the running check period are raised to it (client-go).
    if (requested > 0 && (this.#resyncCheckMs === 0 || requested < this.#resyncCheckMs)) {
      if (!this.#started) {
        this.#resyncCheckMs = requested;
        for (const l of this.#listeners) l.resyncMs = effectiveResync(l.requestedResyncMs, requested);
      } else if (this.#resyncCheckMs > 0) {
        requested = this.#resyncCheckMs;
      } else {
        this.#log.warn({ requestedMs: requested }, 'informer was started without resync; this handler will not be resynced');
      }
    }
    const resyncMs = effectiveResync(requested, this.#resyncCheckMs);
    const name = options.name ?? `handler-${++this.#handlerSeq}`;
    const listener = new ProcessorListener<T>({
      handler,
      name,
      logger: this.#log,
      pending: this.#metrics === noopCacheMetricsProvider ? undefined : this.#metrics.newPendingNotificationsMetric(this.name, name),
      requestedResyncMs: requested,
      resyncMs,
      nextResyncAtMs: this.#clock.now() + resyncMs,
    });
    if (this.#started) {
      // A late handler first sees the current store as initial-list adds, then live events.
      for (const obj of this.#indexer.list()) listener.push({ kind: 'add', obj, isInInitialList: true });
    }
    this.#listeners = [...this.#listeners, listener];
    return {
      hasSynced: () => this.#synced && listener.initialPending === 0,
      remove: () => {
        listener.stop();
        this.#listeners = this.#listeners.filter((l) => l !== listener);
      },
      pending: () => listener.pending,
      errors: () => listener.errors,
    };
  }

  // ---- reads -------------------------------------------------------------------------------------

  getIndexer(): Indexer<T> {
    return this.#indexer;
  }

  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    if (this.#stopped) throw new InformerStoppedError(this.name, 'add indexers');
    this.#indexer.addIndexers(indexers);
  }

  hasSynced(): boolean {
    return this.#synced;
  }

  /** Also rejects, with `InformerStoppedError`, when the informer stops (or has stopped) before syncing. */
  async waitForSync({ signal }: { signal?: AbortSignal } = {}): Promise<void> {
    signal?.throwIfAborted();
    if (this.#synced) return;
    if (this.#stopped) throw new InformerStoppedError(this.name, 'sync');
    let settle: (error?: Error) => void = () => {};
    let onAbort: () => void = () => {};
    try {
      await new Promise<void>((resolve, reject) => {
        settle = (error) => (error ? reject(error) : resolve());
        this.#syncWaiters.add(settle);
        onAbort = () => reject(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } finally {
      this.#syncWaiters.delete(settle);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  lastSyncResourceVersion(): string {
    return this.#reflector.lastSyncResourceVersion();
  }

  status(): ReflectorStatus {
    return this.#reflector.status();
  }

  // ---- running -----------------------------------------------------------------------------------

  async run(signal: AbortSignal): Promise<void> {
    if (this.#started) {
      this.#log.warn({}, 'informer already started; ignoring the second run()');
      return;
    }
    if (this.#stopped || signal.aborted) return;
    this.#started = true;
    this.#startedAtMs = this.#clock.now();
    for (const l of this.#listeners) l.nextResyncAtMs = this.#startedAtMs + l.resyncMs;
    this.#scheduleResyncCheck();
    try {
      await this.#reflector.run(signal);
    } finally {
      this.#stopped = true;
      this.#resyncTimer?.cancel();
      this.#fifo.close();
      for (const l of this.#listeners) l.stop();
      if (!this.#synced) {
        const error = new InformerStoppedError(this.name, 'sync');
        for (const settle of this.#syncWaiters) settle(error);
        this.#syncWaiters.clear();
      }
      this.#log.debug({}, 'informer stopped');
    }
  }

  /**
   * Called by the FIFO when a delta lands in it while empty. The delta is applied at once, in the
   * producer's call: applying is cheap and synchronous (store write, then pushes into handler
   * buffers; handlers themselves run later, in their own microtasks), so this saves a hop per event,
   * and an old object dies young, in the same scavenge as the parse garbage. While a drain runs (or
   * one is scheduled for a backlog) new deltas just queue behind it, in order.
   */
  readonly #onNonEmpty = (): void => {
    if (!this.#drainScheduled) this.#drain();
  };

  /** Applies up to a batch of queued deltas; a larger backlog continues after other I/O had its turn. */
  readonly #drain = (): void => {
    this.#drainScheduled = true;
    if (this.#stopped) return;
    const fifo = this.#fifo;
    fifo.drain(this.#process, this.#processFailed, BATCH);
    this.#afterBatch();
    if (fifo.length > 0) setImmediate(this.#drain);
    else this.#drainScheduled = false;
  };

  #afterBatch(): void {
    if (this.#metrics !== noopCacheMetricsProvider) {
      this.#objectsGauge.set(this.#indexer.size);
      this.#rvGauge.set(resourceVersionGaugeValue(this.#indexer.lastStoreSyncResourceVersion()));
    }
    if (this.#synced || !this.#fifo.hasSynced()) return;
    this.#synced = true;
    const seconds = (this.#clock.now() - this.#startedAtMs) / 1000;
    this.#initialSyncSeconds.observe(seconds);
    this.#log.info({ objects: this.#indexer.size, seconds, resourceVersion: this.#indexer.lastStoreSyncResourceVersion() }, 'cache synced');
    for (const settle of this.#syncWaiters) settle();
    this.#syncWaiters.clear();
  }

  readonly #processFailed = (error: unknown, delta: Delta<T>): void => {
    this.#log.error({ delta: delta.type, error }, 'applying a delta to the store failed');
  };

  /** Applies one delta to the store and distributes its notifications. The hot path. */
  readonly #process = (delta: Delta<T>, isInInitialList: boolean): void => {
    const indexer = this.#indexer;
    switch (delta.type) {
      case 'Added':
      case 'Updated':
      case 'Replaced':
      case 'Sync': {
        const obj = delta.object;
        const old = indexer.upsert(delta.key, obj);
        if (old === undefined) this.#distribute({ kind: 'add', obj, isInInitialList });
        else if (!isSyncUpdate(old, obj)) this.#distribute({ kind: 'update', old, obj });
        return;
      }
      case 'Deleted': {
        const obj = delta.object;
        indexer.remove(delta.key, isDeletedFinalStateUnknown(obj) ? obj.obj : obj);
        this.#distribute({ kind: 'delete', obj });
        return;
      }
      case 'Bookmark':
        indexer.bookmark(delta.resourceVersion);
        return;
      case 'SyncAll': {
        const due = this.#pendingSyncs.shift() ?? [];
        for (const obj of indexer.list()) {
          const n: Notification<T> = { kind: 'update', old: obj, obj };
          for (const l of due) l.push(n);
        }
        return;
      }
      case 'ReplacedAll':
        this.#replaceAll(delta.objects, delta.resourceVersion, isInInitialList);
        return;
    }
  };

  #replaceAll(objects: Map<string, T>, resourceVersion: string, isInInitialList: boolean): void {
    const indexer = this.#indexer;
    const tombstones: DeletedFinalStateUnknown<T>[] = [];
    // The first population (empty store) needs no diff: everything is an add.
    const olds = indexer.size === 0 ? undefined : new Array<T | undefined>(objects.size);
    if (olds) {
      for (const key of indexer.listKeys()) {
        if (!objects.has(key)) tombstones.push(deletedFinalStateUnknown(key, indexer.getByKey(key)!));
      }
      let j = 0;
      for (const key of objects.keys()) olds[j++] = indexer.getByKey(key);
    }
    indexer.replace(objects, resourceVersion);
    for (const t of tombstones) this.#distribute({ kind: 'delete', obj: t });
    let i = 0;
    for (const obj of objects.values()) {
      const old = olds?.[i++];
      if (old === undefined) this.#distribute({ kind: 'add', obj, isInInitialList });
      else if (!isSyncUpdate(old, obj)) this.#distribute({ kind: 'update', old, obj });
    }
    if (tombstones.length > 0) this.#log.debug({ tombstones: tombstones.length }, 'relist found objects deleted while the watch was down');
  }

  #distribute(n: Notification<T>): void {
    const listeners = this.#listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.push(n);
  }

  // ---- resync ------------------------------------------------------------------------------------

  #scheduleResyncCheck(): void {
    if (this.#resyncCheckMs <= 0) return;
    this.#resyncTimer = this.#clock.setTimer(() => {
      if (this.#stopped) return;
      this.#shouldResync();
      this.#scheduleResyncCheck();
    }, this.#resyncCheckMs);
  }

  /** Finds the listeners whose resync is due; if any is, queues a `SyncAll` for exactly those. */
  #shouldResync(): void {
    const now = this.#clock.now();
    const due: ProcessorListener<T>[] = [];
    for (const l of this.#listeners) {
      if (l.resyncMs > 0 && now >= l.nextResyncAtMs) {
        l.nextResyncAtMs = now + l.resyncMs;
        due.push(l);
      }
    }
    if (due.length === 0) return;
    this.#pendingSyncs.push(due);
    this.#fifo.resync();
  }
}

/** client-go `determineResyncPeriod`: 0 when either is 0, else the larger. */
function effectiveResync(requested: number, check: number): number {
  if (requested === 0 || check === 0) return 0;
  return Math.max(requested, check);
}

/** An update that carries no new state (same resourceVersion): a resync or a duplicate. */
function isSyncUpdate<T extends KubeObject>(old: T, obj: T): boolean {
  return old === obj || old.metadata.resourceVersion === obj.metadata.resourceVersion;
}
