/**
 * SharedIndexInformer: one list/watch of a collection, one indexed store, many handlers. Data flows
 * one way, each stage pushing into the next and none calling back up:
 *
 *   Reflector ──▶ RealFIFO ──▶ DeltaProcessor ──▶ IndexedStore (write) ──▶ ProcessorListener × N ──▶ handlers
 *                (transform,    (the FIFO's sink:
 *                 key)           freeze in dev, diff relists)
 *
 * This file wires the stages and owns what is not data: handler registration, the resync timer,
 * sync status and metrics. See delta-processor.ts for how each delta is applied and which
 * notifications it makes. A resync (`SyncAll`) is applied in FIFO order, so it never carries state
 * older than an event queued before it.
 *
 * Invariants: `hasSynced()` turns true only after the first population has been applied to the
 * store; a registration's `hasSynced()` only after that and after its handler has seen every
 * initial-list add; nothing a handler does (throw, reject, block) stops the informer.
 */
import { noopLogger, realClock, type Clock, type KubeObject, type Logger, type Timer } from '../meta/index.js';
import { requireDuration } from '../meta/internal.js';
import { freezeByDefault } from './freeze-policy.js';
import { InformerStoppedError } from './errors.js';
import { DeltaProcessor } from './delta-processor.js';
import { RealFIFO } from './fifo.js';
import { IndexedStore } from './indexer.js';
import type { ListerWatcher } from './list-watcher.js';
import {
  noopCacheMetricsProvider,
  resourceVersionGaugeValue,
  type CacheMetricsProvider,
  type SettableGaugeMetric,
  type HistogramMetric,
} from './metrics.js';
import { ProcessorListener } from './processor-listener.js';
import { Reflector, type ReflectorOptions } from './reflector.js';
import type { HandlerRegistration, IndexFunc, Indexer, ReflectorStatus, ResourceEventHandler, SharedIndexInformer } from './types.js';

/** What `createSharedIndexInformer` watches, and its indexes, resync period, transform and reflector tuning. */
export interface SharedIndexInformerOptions<T extends KubeObject> {
  listerWatcher: ListerWatcher<T>;
  /** Names the informer in logs and metrics; default the ListerWatcher's description. */
  name?: string;
  clock?: Clock;
  logger?: Logger;
  metrics?: CacheMetricsProvider | undefined;
  indexers?: Record<string, IndexFunc<T>> | undefined;
  /** Default resync period of handlers (re-delivery of the cache as same-object updates); 0 = none. */
  resyncMs?: number;
  /** Applied to every object before it is frozen and stored, e.g. to drop `metadata.managedFields`. */
  transform?: ((obj: T) => T) | undefined;
  /**
   * Deep-freeze every stored object, so a write to a cached object throws (default: on unless
   * `NODE_ENV` is `production`, see `freezeByDefault`). Off, objects are stored as decoded, but for
   * managedFields' empty objects, which share one frozen `{}` either way, and the parts of an update's
   * spec and status equal to the stored version's, which are the stored ones (`shareWithStored`); they
   * are still read-only by contract, which tests (freezing) check.
   */
  freeze?: boolean | undefined;
  /** List/watch tuning passed to the reflector. */
  reflector?:
    Pick<ReflectorOptions<T>, 'pageSize' | 'watchList' | 'backoff' | 'minWatchTimeoutMs' | 'inactivityTimeoutMs' | 'random'> | undefined;
}

/** Per-handler options of `addEventHandler`: its own resync period and the name it has in logs and metrics. */
export interface AddEventHandlerOptions {
  /** This handler's resync period; default the informer's. Values in (0, 1 s) become 1 s. */
  resyncMs?: number;
  /** Names the handler in logs and metrics; default `handler-<n>`. */
  name?: string;
}

const MIN_RESYNC_MS = 1000;

/**
 * A shared informer over one ListerWatcher: one reflector and one indexed cache, fanned out to any
 * number of handlers; nothing is listed or watched until `run` is called.
 */
export function createSharedIndexInformer<T extends KubeObject>(o: SharedIndexInformerOptions<T>): SharedIndexInformer<T> {
  return new DefaultSharedIndexInformer(o);
}

class DefaultSharedIndexInformer<T extends KubeObject> implements SharedIndexInformer<T> {
  readonly name: string;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #metrics: CacheMetricsProvider;
  readonly #indexer: IndexedStore<T>;
  readonly #processor: DeltaProcessor<T>;
  readonly #fifo: RealFIFO<T>;
  readonly #reflector: Reflector<T>;
  readonly #initialSyncSeconds: HistogramMetric;
  readonly #objectsGauge: SettableGaugeMetric;
  readonly #rvGauge: SettableGaugeMetric;

  #handlerSeq = 0;
  /** The informer's `resyncMs`: the period of handlers that ask for none of their own. */
  readonly #defaultResyncMs: number;
  /** How often due resyncs are looked for: the shortest period asked for before start. */
  #resyncCheckMs: number;
  #resyncTimer: Timer | undefined;
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
      onIndexError: (index, key, error) =>
        this.#log.error({ index, key, error }, 'index function failed; object stored without values for that index'),
    });
    this.#processor = new DeltaProcessor<T>(this.#indexer, this.#log, o.freeze ?? freezeByDefault());
    const processor = this.#processor;
    this.#fifo = new RealFIFO<T>({
      sink: {
        apply: processor.apply,
        applyFailed: processor.applyFailed,
        batchApplied: this.#batchApplied,
        prepareListed: processor.prepareListed,
      },
      transform: o.transform,
      onRejected: (error, obj) =>
        this.#log.error(
          { name: obj?.metadata?.name, namespace: obj?.metadata?.namespace, error },
          'object left out of the relist: transform or key failed',
        ),
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
        for (const l of this.#processor.listeners) l.resyncMs = effectiveResync(l.requestedResyncMs, requested);
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
    this.#processor.addListener(listener);
    return {
      hasSynced: () => this.#synced && listener.initialPending === 0,
      remove: () => {
        listener.stop();
        this.#processor.removeListener(listener);
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
  async waitForSync({ signal }: { signal?: AbortSignal | undefined } = {}): Promise<void> {
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
    for (const l of this.#processor.listeners) l.nextResyncAtMs = this.#startedAtMs + l.resyncMs;
    this.#scheduleResyncCheck();
    try {
      await this.#reflector.run(signal);
    } finally {
      this.#stopped = true;
      this.#resyncTimer?.cancel();
      this.#fifo.close();
      for (const l of this.#processor.listeners) l.stop();
      if (!this.#synced) {
        const error = new InformerStoppedError(this.name, 'sync');
        for (const settle of this.#syncWaiters) settle(error);
        this.#syncWaiters.clear();
      }
      this.#log.debug({}, 'informer stopped');
    }
  }

  /** The FIFO applied a batch: metrics follow the store, and the first time `synced` holds, waiters are told. */
  readonly #batchApplied = (synced: boolean): void => {
    if (this.#metrics !== noopCacheMetricsProvider) {
      this.#objectsGauge.set(this.#indexer.size);
      this.#rvGauge.set(resourceVersionGaugeValue(this.#indexer.lastStoreSyncResourceVersion()));
    }
    if (this.#synced || !synced) return;
    this.#synced = true;
    const seconds = (this.#clock.now() - this.#startedAtMs) / 1000;
    this.#initialSyncSeconds.observe(seconds);
    this.#log.info({ objects: this.#indexer.size, seconds, resourceVersion: this.#indexer.lastStoreSyncResourceVersion() }, 'cache synced');
    for (const settle of this.#syncWaiters) settle();
    this.#syncWaiters.clear();
  };

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
    for (const l of this.#processor.listeners) {
      if (l.resyncMs > 0 && now >= l.nextResyncAtMs) {
        l.nextResyncAtMs = now + l.resyncMs;
        due.push(l);
      }
    }
    if (due.length === 0) return;
    this.#processor.queueResync(due);
    this.#fifo.resync();
  }
}

/** client-go `determineResyncPeriod`: 0 when either is 0, else the larger. */
function effectiveResync(requested: number, check: number): number {
  if (requested === 0 || check === 0) return 0;
  return Math.max(requested, check);
}
