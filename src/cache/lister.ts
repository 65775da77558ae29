/**
 * Lister: typed, synchronous reads of an informer's store by namespace and name (client-go's
 * listers). Invariant: reads never touch the network and never copy; what they return is the frozen
 * cached object. `list(namespace)` goes through the `namespace` index, never a full scan.
 */
import type { KubeObject, Selector } from '../meta/index.js';
import { NAMESPACE_INDEX } from './indexer.js';
import type { Indexer } from './types.js';

export interface Lister<T extends KubeObject = KubeObject> {
  /** The cached object, or undefined when the cache does not have it. Use `''` as namespace for cluster-scoped kinds. */
  get(namespace: string, name: string): T | undefined;
  /** Cached objects in `namespace` (all namespaces when omitted or `''`) whose labels match `selector`. */
  list(namespace?: string, selector?: Selector): T[];
}

/** A `Lister` reading from `indexer`: synchronous, no copies, namespaced lists through the namespace index. */
export function createLister<T extends KubeObject>(indexer: Indexer<T>): Lister<T> {
  return Object.freeze({
    get: (namespace: string, name: string) => indexer.getByKey(namespace ? `${namespace}/${name}` : name),
    list: (namespace?: string, selector?: Selector) => {
      const objs = namespace ? indexer.byIndex(NAMESPACE_INDEX, namespace) : indexer.list();
      if (!selector || selector.empty()) return objs;
      return objs.filter((o) => selector.matches(o.metadata.labels));
    },
  });
}
