// Public face of the cache layer (filled in by its issue).
export type { SharedIndexInformer, ResourceEventHandler, DeletedFinalStateUnknown, HandlerRegistration, Indexer, IndexFunc } from './types.js';
