/**
 * The cache's contract: what controllers and the manager may rely on. Written first so the layers can
 * be built side by side; this folder implements it. Invariants: objects handed out are deep-frozen;
 * handlers of one registration see events in order; `hasSynced()` is true only after the first full
 * population has been delivered to the store (and, per registration, to that handler).
 */
import type { KubeObject } from '../meta/index.js';

/** What a handler receives for an object that vanished while the watch was down. */
export interface DeletedFinalStateUnknown<T extends KubeObject = KubeObject> {
  readonly key: string;
  /** The last state the cache knew. */
  readonly obj: T;
  readonly deletedFinalStateUnknown: true;
}

/**
 * Notification callbacks. A callback may return a promise: the registration's next notification then
 * waits for it (the handler's buffer grows meanwhile; other registrations are not held up), and a
 * rejection is logged and counted like a throw.
 */
export interface ResourceEventHandler<T extends KubeObject = KubeObject> {
  onAdd?(obj: T, isInInitialList: boolean): void | Promise<void>;
  onUpdate?(oldObj: T, newObj: T): void | Promise<void>;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void | Promise<void>;
}

/** What `addEventHandler` returns: the handler's own sync state, backlog and error count, and `remove` to stop delivery to it. */
export interface HandlerRegistration {
  /** True once every object of the initial list was delivered to this handler. */
  hasSynced(): boolean;
  /** Stops delivery to this handler. */
  remove(): void;
  /** Notifications queued for this handler and not yet delivered. */
  pending(): number;
  /** Calls of this handler that threw or rejected (each was logged and skipped). */
  errors(): number;
}

/** The values an object is indexed under in one named index; it should be pure, and one that throws leaves the object without values in that index (the error is reported, not thrown). */
export type IndexFunc<T extends KubeObject = KubeObject> = (obj: T) => readonly string[];

/** Read side of a store with secondary indexes. All returned objects are frozen. */
export interface Indexer<T extends KubeObject = KubeObject> {
  getByKey(key: string): T | undefined;
  list(): T[];
  listKeys(): string[];
  byIndex(indexName: string, indexedValue: string): T[];
  indexKeys(indexName: string, indexedValue: string): string[];
  listIndexFuncValues(indexName: string): string[];
  /** Objects whose values in the named index intersect `indexFunc(obj)`; each object once. */
  index(indexName: string, obj: T): T[];
  /**
   * The resourceVersion the store last reflected: from adds, updates, deletes, relists and bookmarks
   * (client-go's `LastStoreSyncResourceVersion`). `''` before anything arrived.
   */
  lastStoreSyncResourceVersion(): string;
  /** Adds indexes; existing items are indexed at once. Throws if a name is already taken. */
  addIndexers(indexers: Record<string, IndexFunc<T>>): void;
}

export interface SharedIndexInformer<T extends KubeObject = KubeObject> {
  /** `resyncMs`: this handler's resync period (default the informer's); `name` labels it in logs and metrics. */
  addEventHandler(handler: ResourceEventHandler<T>, options?: { resyncMs?: number; name?: string }): HandlerRegistration;
  getIndexer(): Indexer<T>;
  addIndexers(indexers: Record<string, IndexFunc<T>>): void;
  hasSynced(): boolean;
  /** Resolves when synced; rejects with the signal's reason if it aborts first. */
  waitForSync(options?: { signal?: AbortSignal | undefined }): Promise<void>;
  lastSyncResourceVersion(): string;
  /** What the list/watch loop is doing and how it has fared: never throws, always current. */
  status(): ReflectorStatus;
  /** Starts list/watch; resolves when `signal` aborts and everything stopped. */
  run(signal: AbortSignal): Promise<void>;
}

/** Why a list or watch failed, as counted in metrics and status. */
export type WatchErrorReason = 'gone' | 'tooManyRequests' | 'network' | 'other';

/** The reflector's phases; see reflector-state.ts for the transitions. */
export type ReflectorPhase = 'idle' | 'streaming' | 'listing' | 'watching' | 'backoff' | 'stopped';

/** A snapshot of a reflector (`informer.status()`): its phase, the resourceVersion it resumes from, and its reconnect, relist and error counts. */
export interface ReflectorStatus {
  phase: ReflectorPhase;
  /** The resourceVersion the next watch (or relist) starts from. */
  lastSyncResourceVersion: string;
  /** Watches opened after the first one. */
  reconnects: number;
  /** Full relists (list or streaming) after the first population. */
  relists: number;
  /** Failures by reason since start. */
  errors: Readonly<Record<WatchErrorReason, number>>;
  lastError?: { reason: WatchErrorReason; message: string; atMs: number };
  /** Set while in backoff: when the next attempt starts (clock ms). */
  retryAtMs?: number;
}
