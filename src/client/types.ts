/**
 * The client's contract: what every other layer (cache, controller, manager, testing) may call. It is
 * written first so that layers can be built side by side; `createClient` in this folder implements it
 * over HTTP. Invariants: every non-2xx response rejects with a `StatusError` carrying the server's
 * `Status`; network failures reject with a `NetworkError` naming the request; nothing is retried
 * silently except as documented (429 with Retry-After, transient errors on idempotent verbs).
 */
import type { KubeList, KubeObject, NamespacedName, ResourceDescriptor, Status } from '../meta/index.js';

/** How a patch body is read: JSON patch, JSON merge patch, strategic merge patch or server-side apply. */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = Object.freeze({
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
});

/** What every client call accepts: a signal that cancels it. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
}

/** Options every write accepts: dry run, the field manager, and how strictly unknown fields are refused. */
export interface WriteOptions extends RequestOptions {
  dryRun?: boolean | undefined;
  fieldManager?: string | undefined;
  fieldValidation?: 'Ignore' | 'Warn' | 'Strict' | undefined;
}

/** Options of a list: namespace, label and field selectors, and paging. */
export interface ListOptions extends RequestOptions {
  /** Omit (or '') for all namespaces / cluster-scoped kinds. */
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  /**
   * Sharded list (KEP-5866, alpha in Kubernetes 1.36): `shardRange(object.metadata.uid, '0x0',
   * '0x8000000000000000')`, several ranges joined by `||`. The answer is the shard, a subset of the
   * collection, and says so in `metadata.shardInfo`; a server without the feature ignores it.
   */
  shardSelector?: string | undefined;
  limit?: number | undefined;
  continue?: string | undefined;
  resourceVersion?: string | undefined;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan' | undefined;
}

/** Options of a watch: where to start, which objects to see, and whether to receive bookmarks. */
export interface WatchOptions extends RequestOptions {
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  /** Sharded watch: events of objects outside the shard are not sent (see `ListOptions.shardSelector`). */
  shardSelector?: string | undefined;
  resourceVersion?: string | undefined;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan' | undefined;
  allowWatchBookmarks?: boolean | undefined;
  sendInitialEvents?: boolean | undefined;
  timeoutSeconds?: number | undefined;
  /** Watchdog: the stream is failed with a NetworkError if no bytes arrive for this long. */
  inactivityTimeoutMs?: number | undefined;
}

/** One event of a watch: an object added, modified or deleted, a bookmark, or an error `Status`. */
export type WatchEvent<T extends KubeObject = KubeObject> =
  { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T } | { type: 'BOOKMARK'; object: KubeObject } | { type: 'ERROR'; object: Status };

/** An open watch: iterate events; `close()` (or breaking out, or aborting the signal) frees the socket. */
export interface WatchStream<T extends KubeObject = KubeObject> extends AsyncIterable<WatchEvent<T>> {
  close(): void;
  /**
   * Optional fast path: hands the events already decoded (after the last one iteration returned) to
   * `fn`, in order and synchronously, while `more()` allows; returns how many. Never reports the end
   * or a failure: iteration does, after these events. Streams that cannot do this leave it out.
   */
  drainDecoded?(fn: (event: WatchEvent<T>) => void, more: () => boolean): number;
}

/** Options of an update: the write options, and the subresource (such as `status`) to update. */
export interface UpdateOptions extends WriteOptions {
  /** PUT to a subresource (`status`, `scale`) instead of the object itself. */
  subresource?: string;
}

/** Options of a delete: preconditions, grace period and how dependents are propagated. */
export interface DeleteOptions extends WriteOptions {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string | undefined; resourceVersion?: string | undefined };
}

/** Options of a patch: the subresource to patch, and `force` to take over fields another manager owns in server-side apply. */
export interface PatchOptions extends WriteOptions {
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean;
  subresource?: string;
}

/** Any resource, addressed by descriptor. Reads and writes go to the API server (no cache here). */
export interface Client {
  get<T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName, o?: RequestOptions & { subresource?: string }): Promise<T>;
  list<T extends KubeObject>(r: ResourceDescriptor<T>, o?: ListOptions): Promise<KubeList<T>>;
  watch<T extends KubeObject>(r: ResourceDescriptor<T>, o?: WatchOptions): Promise<WatchStream<T>>;
  create<T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: WriteOptions): Promise<T>;
  update<T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: UpdateOptions): Promise<T>;
  updateStatus<T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: WriteOptions): Promise<T>;
  patch<T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName, patch: unknown, type: PatchType, o?: PatchOptions): Promise<T>;
  /** Returns the object as the server last saw it (with deletionTimestamp) or the Status when gone at once. */
  delete<T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName, o?: DeleteOptions): Promise<T | Status>;
  deleteCollection<T extends KubeObject>(r: ResourceDescriptor<T>, o?: ListOptions & DeleteOptions): Promise<KubeList<T> | Status>;
}
