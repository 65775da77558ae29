/**
 * One informer over several namespaces, made of one namespaced informer per namespace — what
 * controller-runtime's multi-namespace cache does when a kind's cache lists more than one namespace,
 * so that RBAC limited to those namespaces suffices. Handlers are registered on every member and see
 * each namespace's events in order; reads route a key to the member owning its namespace and
 * concatenate lists. Invariant: the members' collections are disjoint (one namespace each), so no
 * object is ever returned or delivered twice.
 */
import { splitKey, type KubeObject } from '../../meta/index.js';
import type {
  HandlerRegistration,
  IndexFunc,
  Indexer,
  ReflectorStatus,
  ResourceEventHandler,
  SharedIndexInformer,
} from '../../cache/index.js';
import { combineReflectorStatuses } from './combined-status.js';

export function multiNamespaceInformer<T extends KubeObject>(members: ReadonlyMap<string, SharedIndexInformer<T>>): SharedIndexInformer<T> {
  const all = [...members.values()];
  const first = all[0];
  if (!first) throw new RangeError('multiNamespaceInformer needs at least one namespace');
  const indexer: Indexer<T> = {
    getByKey: (key) => members.get(splitKey(key).namespace)?.getIndexer().getByKey(key),
    list: () => all.flatMap((i) => i.getIndexer().list()),
    listKeys: () => all.flatMap((i) => i.getIndexer().listKeys()),
    byIndex: (name, value) => all.flatMap((i) => i.getIndexer().byIndex(name, value)),
    indexKeys: (name, value) => all.flatMap((i) => i.getIndexer().indexKeys(name, value)),
    listIndexFuncValues: (name) => [...new Set(all.flatMap((i) => i.getIndexer().listIndexFuncValues(name)))],
    index: (name, obj) => all.flatMap((i) => i.getIndexer().index(name, obj)),
    // Resource versions of different watches are not comparable; report the first member's.
    lastStoreSyncResourceVersion: () => first.getIndexer().lastStoreSyncResourceVersion(),
    addIndexers: (indexers) => all.forEach((i) => i.addIndexers(indexers)),
  };
  return {
    addEventHandler(handler: ResourceEventHandler<T>, options?: { resyncMs?: number }): HandlerRegistration {
      const regs = all.map((i) => i.addEventHandler(handler, options));
      return {
        hasSynced: () => regs.every((r) => r.hasSynced()),
        remove: () => regs.forEach((r) => r.remove()),
        pending: () => regs.reduce((n, r) => n + r.pending(), 0),
        errors: () => regs.reduce((n, r) => n + r.errors(), 0),
      };
    },
    getIndexer: () => indexer,
    addIndexers: (indexers: Record<string, IndexFunc<T>>) => all.forEach((i) => i.addIndexers(indexers)),
    hasSynced: () => all.every((i) => i.hasSynced()),
    waitForSync: async (options?: { signal?: AbortSignal | undefined }) => {
      await Promise.all(all.map((i) => i.waitForSync(options)));
    },
    lastSyncResourceVersion: () => first.lastSyncResourceVersion(),
    status: (): ReflectorStatus => combineReflectorStatuses([first.status(), ...all.slice(1).map((i) => i.status())]),
    run: async (signal: AbortSignal) => {
      await Promise.all(all.map((i) => i.run(signal)));
    },
  };
}
