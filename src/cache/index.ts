// Public face of the cache layer: ListerWatcher, Reflector, the FIFO, Store/Indexer, SharedIndexInformer,
// the informer factory and listers, and the cache's metrics hooks.
export { createListerWatcher } from './list-watcher.js';
export type { ListerWatcher, ListerWatcherOptions, ListCallOptions, WatchCallOptions } from './list-watcher.js';
export { IndexedStore, NAMESPACE_INDEX, metaNamespaceIndexFunc } from './indexer.js';
export type { IndexedStoreOptions } from './indexer.js';
export { deletedFinalStateUnknown, isDeletedFinalStateUnknown, deletionHandlingKey, deletedObject } from './tombstone.js';
export { createSharedIndexInformer } from './shared-informer.js';
export type { SharedIndexInformerOptions, AddEventHandlerOptions } from './shared-informer.js';
export { SharedInformerFactory } from './informer-factory.js';
export type { SharedInformerFactoryOptions, InformerForOptions } from './informer-factory.js';
export type { Lister } from './lister.js';
export type { CacheMetricsProvider } from './metrics.js';
export { IndexerError, InformerStoppedError, ShardSelectorIgnoredError, WatchInterruptedError } from './errors.js';
export type {
  DeletedFinalStateUnknown,
  ResourceEventHandler,
  HandlerRegistration,
  IndexFunc,
  Indexer,
  SharedIndexInformer,
  WatchErrorReason,
  ReflectorPhase,
  ReflectorStatus,
} from './types.js';
