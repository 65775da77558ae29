// The manager's informer cache (controller-runtime's pkg/cache): one informer per kind for the process,
// per-kind namespaces, selectors and transform, multi-namespace and sharded informers, and the split
// client that reads from it and writes to the API server.
export { InformerCache, DEFAULT_SYNC_PERIOD_MS } from './informer-cache.js';
export { stripManagedFields } from './managed-fields.js';
export type { CacheOptions, CacheResourceOptions, CacheListOptions } from './informer-cache.js';
export { ShardedInformer } from './sharded-informer.js';
export type { ShardedInformerOptions } from './sharded-informer.js';
export { createSplitClient } from './split-client.js';
export { withReadYourWrites } from './read-your-writes-client.js';
export type { ManagerClient, CacheReader, StatusWriter } from './split-client.js';
export { CacheNotSyncedError, InformerForbiddenError, ShardNotOwnedError } from './errors.js';
