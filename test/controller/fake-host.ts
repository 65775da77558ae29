// Imports meta's internal (private) face: machinery shared between layers that the package does not export.
/**
 * A `ControllerHost` for controller tests, over fake informers the test drives by hand (add, update,
 * delete, tombstone, resync, sync), a `FakeClock`, a logger that records every line and metrics that
 * count every call. Nothing here touches the network. Handlers are called synchronously, as the
 * controller's are, so the promise the handler contract allows is not awaited (`void`).
 */
import { FakeClock, InvalidOptionError, UnknownResourceError, gvkOfResource, objectKey } from 'kube-converge/meta';
import { formatGVK } from '../../src/meta/internal.js';
import type { KubeObject, LogFields, Logger, LogLevel, ResourceDescriptor } from 'kube-converge/meta';
import type { HandlerRegistration, IndexFunc, Indexer, ResourceEventHandler, SharedIndexInformer } from 'kube-converge/cache';
import type { ControllerHost, ControllerMetrics, Runnable } from 'kube-converge/controller';

export class FakeInformer<T extends KubeObject = KubeObject> implements SharedIndexInformer<T> {
  readonly store = new Map<string, T>();
  readonly handlers = new Set<ResourceEventHandler<T>>();
  #synced = false;
  #syncWaiters: (() => void)[] = [];
  /** While true, handler registrations report not synced even after the informer did (a slow handler). */
  holdRegistrations = false;

  /** Marks the informer synced (as after its first list), releasing `waitForSync`. */
  sync(): void {
    this.#synced = true;
    for (const w of this.#syncWaiters.splice(0)) w();
  }

  /** Puts an object in the store without telling handlers: it will be part of their initial list. */
  seed(obj: T): void {
    this.store.set(objectKey(obj), Object.freeze(obj));
  }

  add(obj: T): void {
    this.seed(obj);
    for (const h of this.handlers) void h.onAdd?.(obj, false);
  }

  update(obj: T): void {
    const old = this.store.get(objectKey(obj));
    if (!old) throw new Error(`update of unknown ${objectKey(obj)}`);
    this.seed(obj);
    for (const h of this.handlers) void h.onUpdate?.(old, obj);
  }

  /** Delivers the same object as both old and new, as a periodic resync does. */
  resync(key: string): void {
    const obj = this.store.get(key)!;
    for (const h of this.handlers) void h.onUpdate?.(obj, obj);
  }

  delete(key: string, options: { tombstone?: boolean } = {}): void {
    const obj = this.store.get(key)!;
    this.store.delete(key);
    for (const h of this.handlers) {
      void h.onDelete?.(options.tombstone ? { key, obj, deletedFinalStateUnknown: true } : obj);
    }
  }

  addEventHandler(handler: ResourceEventHandler<T>): HandlerRegistration {
    this.handlers.add(handler);
    for (const obj of this.store.values()) void handler.onAdd?.(obj, true);
    return {
      hasSynced: () => this.#synced && !this.holdRegistrations,
      remove: () => void this.handlers.delete(handler),
      pending: () => 0,
      errors: () => 0,
    };
  }

  getIndexer(): Indexer<T> {
    const list = (): T[] => [...this.store.values()];
    const unsupported = (): never => {
      throw new Error('FakeInformer has no indexes');
    };
    return {
      getByKey: (k) => this.store.get(k),
      list,
      listKeys: () => [...this.store.keys()],
      byIndex: unsupported,
      indexKeys: unsupported,
      listIndexFuncValues: unsupported,
      index: unsupported,
      lastStoreSyncResourceVersion: () => '',
      addIndexers: unsupported,
    };
  }

  addIndexers(_indexers: Record<string, IndexFunc<T>>): void {
    throw new Error('FakeInformer has no indexes');
  }

  hasSynced(): boolean {
    return this.#synced;
  }

  waitForSync(options: { signal?: AbortSignal | undefined } = {}): Promise<void> {
    const { signal } = options;
    if (this.#synced) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#syncWaiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  lastSyncResourceVersion(): string {
    return '';
  }

  status() {
    return {
      phase: 'watching' as const,
      lastSyncResourceVersion: '',
      reconnects: 0,
      relists: 0,
      errors: { gone: 0, tooManyRequests: 0, network: 0, other: 0 },
    };
  }

  run(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
}

export interface LogLine {
  level: LogLevel;
  msg: string;
  fields: LogFields;
}

export function recordingLogger(lines: LogLine[], bound: LogFields = {}): Logger {
  const emit = (level: LogLevel) => (fields: LogFields, msg: string) => void lines.push({ level, msg, fields: { ...bound, ...fields } });
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (fields) => recordingLogger(lines, { ...bound, ...fields }),
  };
}

/** Counts every metric call as `method{controller}` or `reconcileTotal{controller,result}`. */
export class CountingMetrics implements ControllerMetrics {
  readonly counts = new Map<string, number>();
  readonly gauges = new Map<string, number>();
  #inc(k: string, by = 1): void {
    this.counts.set(k, (this.counts.get(k) ?? 0) + by);
  }
  count(k: string): number {
    return this.counts.get(k) ?? 0;
  }
  reconcileTotal(c: string, result: string): void {
    this.#inc(`reconcile_total{${c},${result}}`);
  }
  reconcileErrors(c: string): void {
    this.#inc(`reconcile_errors_total{${c}}`);
  }
  terminalReconcileErrors(c: string): void {
    this.#inc(`terminal_reconcile_errors_total{${c}}`);
  }
  reconcilePanics(c: string): void {
    this.#inc(`reconcile_panics_total{${c}}`);
  }
  reconcileTimeouts(c: string): void {
    this.#inc(`reconcile_timeouts_total{${c}}`);
  }
  readYourWritesTimeouts(c: string): void {
    this.#inc(`read_your_writes_timeouts_total{${c}}`);
  }
  reconcileTime(c: string): void {
    this.#inc(`reconcile_time_seconds_count{${c}}`);
  }
  maxConcurrentReconciles(c: string, n: number): void {
    this.gauges.set(`max_concurrent_reconciles{${c}}`, n);
  }
  activeWorkers(c: string, delta: 1 | -1): void {
    const k = `active_workers{${c}}`;
    this.gauges.set(k, (this.gauges.get(k) ?? 0) + delta);
  }
}

export interface FakeClient {
  readonly fake: true;
}

export class FakeHost implements ControllerHost<FakeClient> {
  readonly client: FakeClient = { fake: true };
  readonly clock = new FakeClock();
  readonly lines: LogLine[] = [];
  readonly logger = recordingLogger(this.lines);
  readonly controllerMetrics = new CountingMetrics();
  readonly runnables: Runnable[] = [];
  readonly names = new Set<string>();
  readonly #informers = new Map<string, FakeInformer<KubeObject>>();
  /** Kinds `getInformer` rejects, as for a CRD that is not installed; with a count, only that many times. */
  readonly unserved = new Map<string, number>();
  getInformerCalls = 0;

  informer<T extends KubeObject>(resource: ResourceDescriptor<T>): FakeInformer<T> {
    const k = formatGVK(gvkOfResource(resource));
    let inf = this.#informers.get(k);
    if (!inf) this.#informers.set(k, (inf = new FakeInformer()));
    return inf as unknown as FakeInformer<T>;
  }

  async getInformer<T extends KubeObject>(resource: ResourceDescriptor<T>): Promise<SharedIndexInformer<T>> {
    this.getInformerCalls++;
    const k = formatGVK(gvkOfResource(resource));
    const left = this.unserved.get(k);
    if (left !== undefined && left > 0) {
      this.unserved.set(k, left - 1);
      throw new UnknownResourceError(k);
    }
    return this.informer(resource);
  }

  add(runnable: Runnable): void {
    this.runnables.push(runnable);
  }

  registerControllerName(name: string): void {
    if (this.names.has(name)) {
      throw new InvalidOptionError('name', `controller with name ${name} already exists; names must be unique (or set skipNameValidation)`);
    }
    this.names.add(name);
  }
}

/** Lets every pending promise callback and I/O callback run (not a sleep: no time passes). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Advances the fake clock in 1 ms steps, settling in between, so async work sees exact times. */
export async function step(clock: FakeClock, ms: number): Promise<void> {
  for (let i = 0; i < ms; i++) {
    await clock.advance(1);
    await settle();
  }
}
