/**
 * ListerWatcher: list and watch of one resource with one set of options (namespace, label and field
 * selectors), built from one descriptor over a `Client`. Invariant: the list and the watch always
 * address exactly the same collection, because both are derived from the same frozen options; the
 * reflector can only choose resourceVersion, paging and streaming parameters.
 */
import type { Client, ListOptions, WatchOptions, WatchStream } from '../client/index.js';
import type { KubeList, KubeObject, ResourceDescriptor } from '../meta/index.js';

export interface ListerWatcherOptions<T extends KubeObject> {
  client: Client;
  resource: ResourceDescriptor<T>;
  /** Omit (or '') for all namespaces and for cluster-scoped kinds. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** What the reflector may set on a list call. */
export type ListCallOptions = Pick<ListOptions, 'limit' | 'continue' | 'resourceVersion' | 'resourceVersionMatch' | 'signal'>;

/** What the reflector may set on a watch call. */
export type WatchCallOptions = Pick<
  WatchOptions,
  'resourceVersion' | 'resourceVersionMatch' | 'allowWatchBookmarks' | 'sendInitialEvents' | 'timeoutSeconds' | 'signal'
>;

export interface ListerWatcher<T extends KubeObject = KubeObject> {
  readonly resource: ResourceDescriptor<T>;
  /** `plural.group` plus namespace and selectors: names the collection in logs and metrics. */
  readonly description: string;
  list(o: ListCallOptions): Promise<KubeList<T>>;
  watch(o: WatchCallOptions): Promise<WatchStream<T>>;
}

export function createListerWatcher<T extends KubeObject>(o: ListerWatcherOptions<T>): ListerWatcher<T> {
  const { client, resource } = o;
  // '' means "not set" for all three, as on the wire; drop it so it never becomes an empty query param.
  const set = (v: string | undefined): string | undefined => (v ? v : undefined);
  const scope = Object.freeze({
    namespace: resource.namespaced ? set(o.namespace) : undefined,
    labelSelector: set(o.labelSelector),
    fieldSelector: set(o.fieldSelector),
  });
  return Object.freeze({
    resource,
    description: describe(resource, scope),
    list: (call: ListCallOptions) => client.list(resource, { ...call, ...scope }),
    watch: (call: WatchCallOptions) => client.watch(resource, { ...call, ...scope }),
  });
}

function describe(r: ResourceDescriptor<KubeObject>, s: { namespace?: string; labelSelector?: string; fieldSelector?: string }): string {
  let d = r.group ? `${r.plural}.${r.group}` : r.plural;
  if (s.namespace) d += ` namespace=${s.namespace}`;
  if (s.labelSelector) d += ` labels=${s.labelSelector}`;
  if (s.fieldSelector) d += ` fields=${s.fieldSelector}`;
  return d;
}
