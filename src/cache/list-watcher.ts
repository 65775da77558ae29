/**
 * ListerWatcher: list and watch of one resource with one set of options (namespace, label, field and
 * shard selectors), built from one descriptor over a `Client`. Invariant: the list and the watch always
 * address exactly the same collection, because both are derived from the same frozen options; the
 * reflector can only choose resourceVersion, paging and streaming parameters.
 *
 * A sharded ListerWatcher addresses the shard, never the whole collection: a list the server answered
 * without `metadata.shardInfo` (it ignored the selector) is refused rather than stored. Through a
 * metadata-only descriptor (`metadataOnly(resource)`), objects are `PartialObjectMetadata` carrying
 * the apiVersion and kind of the resource, as controller-runtime's metadata informers keep them.
 */
import { type Client, type ListOptions, type WatchEvent, type WatchOptions, type WatchStream } from '../client/index.js';
import { isMetadataOnly } from '../client/internal.js';
import type { KubeList, KubeObject, ListMeta, ResourceDescriptor } from '../meta/index.js';
import { ShardSelectorIgnoredError } from './errors.js';

/** What `createListerWatcher` lists and watches: one resource through one client, narrowed by namespace, selectors and shard. @extension */
export interface ListerWatcherOptions<T extends KubeObject> {
  client: Client;
  resource: ResourceDescriptor<T>;
  /** Omit (or '') for all namespaces and for cluster-scoped kinds. */
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  /**
   * Sharded list and watch (KEP-5866): `shardRange(object.metadata.uid, '0x0', '0x8000000000000000')`,
   * ranges joined by `||`. An informer over it holds only its shard: a missing object is not a
   * deleted one, and complementary shards together make up the collection.
   */
  shardSelector?: string | undefined;
}

/** What the reflector may set on a list call. @extension */
export type ListCallOptions = Pick<ListOptions, 'limit' | 'continue' | 'resourceVersion' | 'resourceVersionMatch' | 'signal'>;

/** What the reflector may set on a watch call. @extension */
export type WatchCallOptions = Pick<
  WatchOptions,
  | 'resourceVersion'
  | 'resourceVersionMatch'
  | 'allowWatchBookmarks'
  | 'sendInitialEvents'
  | 'timeoutSeconds'
  | 'inactivityTimeoutMs'
  | 'signal'
>;

/** @extension */
export interface ListerWatcher<T extends KubeObject = KubeObject> {
  readonly resource: ResourceDescriptor<T>;
  /** `plural.group` plus namespace and selectors: names the collection in logs and metrics. */
  readonly description: string;
  list(o: ListCallOptions): Promise<KubeList<T>>;
  watch(o: WatchCallOptions): Promise<WatchStream<T>>;
}

/** @extension */
export function createListerWatcher<T extends KubeObject>(o: ListerWatcherOptions<T>): ListerWatcher<T> {
  const { client, resource } = o;
  // '' means "not set" for all four, as on the wire; drop it so it never becomes an empty query param.
  const set = (v: string | undefined): string | undefined => (v ? v : undefined);
  const scope: Scope = Object.freeze({
    namespace: resource.namespaced ? set(o.namespace) : undefined,
    labelSelector: set(o.labelSelector),
    fieldSelector: set(o.fieldSelector),
    shardSelector: set(o.shardSelector),
  });
  const description = describe(resource, scope);
  const setKind = isMetadataOnly(resource) ? kindSetter(resource) : undefined;
  return Object.freeze({
    resource,
    description,
    async list(call: ListCallOptions): Promise<KubeList<T>> {
      const list = await client.list(resource, { ...call, ...scope });
      if (scope.shardSelector && (list.metadata as ListMeta & { shardInfo?: unknown }).shardInfo === undefined) {
        throw new ShardSelectorIgnoredError(description, scope.shardSelector);
      }
      if (setKind) for (const item of list.items) setKind(item);
      return list;
    },
    async watch(call: WatchCallOptions): Promise<WatchStream<T>> {
      const stream = await client.watch(resource, { ...call, ...scope });
      return setKind ? withObjects(stream, setKind) : stream;
    },
  });
}

interface Scope {
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  shardSelector?: string | undefined;
}

function describe(r: ResourceDescriptor<KubeObject>, s: Scope): string {
  let d = r.group ? `${r.plural}.${r.group}` : r.plural;
  if (isMetadataOnly(r)) d += ' metadata-only';
  if (s.namespace) d += ` namespace=${s.namespace}`;
  if (s.labelSelector) d += ` labels=${s.labelSelector}`;
  if (s.fieldSelector) d += ` fields=${s.fieldSelector}`;
  if (s.shardSelector) d += ` shard=${s.shardSelector}`;
  return d;
}

/** Gives a freshly decoded metadata-only object the resource's apiVersion and kind (it is not frozen yet). */
function kindSetter(r: ResourceDescriptor<KubeObject>): (obj: KubeObject) => void {
  return (obj) => {
    obj.apiVersion = r.apiVersion;
    obj.kind = r.kind;
  };
}

/** The stream with `f` applied to the object of every ADDED, MODIFIED and DELETED event. */
function withObjects<T extends KubeObject>(stream: WatchStream<T>, f: (obj: KubeObject) => void): WatchStream<T> {
  const touchEvent = (e: WatchEvent<T>): WatchEvent<T> => {
    if (e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED') f(e.object);
    return e;
  };
  const touch = (r: IteratorResult<WatchEvent<T>>): IteratorResult<WatchEvent<T>> => {
    if (!r.done) touchEvent(r.value);
    return r;
  };
  const drain = stream.drainDecoded?.bind(stream);
  return {
    close: () => stream.close(),
    ...(drain ? { drainDecoded: (fn: (e: WatchEvent<T>) => void, more: () => boolean) => drain((e) => fn(touchEvent(e)), more) } : {}),
    [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
      const it = stream[Symbol.asyncIterator]();
      return {
        next: () => it.next().then(touch),
        return: async () => (it.return ? it.return() : { done: true, value: undefined }),
      };
    },
  };
}
