/**
 * The split client reconcilers get from the manager (controller-runtime's default client): reads are
 * answered synchronously from the shared informer cache — frozen objects, zero copy, never the
 * network — while every write goes straight to the API server. `apiReader` reads from the server,
 * for the rare read that must not be stale (e.g. before a non-idempotent action). Invariant: a
 * cached read never blocks and never returns a half-synced answer (`CacheNotSyncedError` instead).
 */
import type { KubeObject, NamespacedName, ResourceDescriptor } from '../../meta/index.js';
import type { Client, PatchOptions, PatchType, WriteOptions } from '../../client/index.js';
import type { CacheListOptions, InformerCache } from './informer-cache.js';

/** Cached reads. Objects are deep-frozen: `clone()` one before changing it. */
export interface CacheReader {
  /** The object from the cache, or undefined if the cache does not hold it. */
  get<T extends KubeObject>(resource: ResourceDescriptor<T>, nn: NamespacedName): T | undefined;
  list<T extends KubeObject>(resource: ResourceDescriptor<T>, options?: CacheListOptions): T[];
}

/** Writes to the status subresource. */
export interface StatusWriter {
  update<T extends KubeObject>(resource: ResourceDescriptor<T>, obj: T, options?: WriteOptions): Promise<T>;
  patch<T extends KubeObject>(
    resource: ResourceDescriptor<T>,
    nn: NamespacedName,
    patch: unknown,
    type: PatchType,
    options?: PatchOptions,
  ): Promise<T>;
}

/**
 * The client reconcilers get from a manager: reads from the shared cache, writes straight to the API server.
 * The writes are the `Client`'s own, except that `update` writes the object, never a subresource.
 */
export interface ManagerClient extends CacheReader, Pick<Client, 'create' | 'patch' | 'delete' | 'deleteCollection'> {
  update<T extends KubeObject>(resource: ResourceDescriptor<T>, obj: T, options?: WriteOptions): Promise<T>;
  status(): StatusWriter;
  /** Uncached reads straight from the API server. */
  readonly apiReader: Pick<Client, 'get' | 'list' | 'watch'>;
}

export function createSplitClient(options: { client: Client; cache: InformerCache }): ManagerClient {
  const { client, cache } = options;
  const status: StatusWriter = Object.freeze({
    update: <T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: WriteOptions) => client.updateStatus(r, obj, o),
    patch: <T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName, p: unknown, type: PatchType, o?: PatchOptions) =>
      client.patch(r, nn, p, type, { ...o, subresource: 'status' }),
  });
  const apiReader: Pick<Client, 'get' | 'list' | 'watch'> = Object.freeze({
    get: client.get.bind(client),
    list: client.list.bind(client),
    watch: client.watch.bind(client),
  });
  return Object.freeze({
    get: <T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName) => cache.get(r, nn),
    list: <T extends KubeObject>(r: ResourceDescriptor<T>, o?: CacheListOptions) => cache.list(r, o),
    create: client.create.bind(client),
    update: <T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: WriteOptions) => client.update(r, obj, o),
    patch: client.patch.bind(client),
    delete: client.delete.bind(client),
    deleteCollection: client.deleteCollection.bind(client),
    status: () => status,
    apiReader,
  });
}
