/**
 * The split client reconcilers get from the manager (controller-runtime's default client): reads are
 * answered synchronously from the shared informer cache — frozen objects, zero copy, never the
 * network — while every write goes straight to the API server. `apiReader` reads from the server,
 * for the rare read that must not be stale (e.g. before a non-idempotent action). Invariant: a
 * cached read never blocks and never returns a half-synced answer (`CacheNotSyncedError` instead).
 */
import type { KubeList, KubeObject, NamespacedName, ResourceDescriptor, Status } from '../../meta/index.js';
import type { Client, DeleteOptions, ListOptions, PatchOptions, PatchType, WriteOptions } from '../../client/index.js';
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

/** The client reconcilers get from a manager: reads from the shared cache, writes straight to the API server. */
export interface ManagerClient extends CacheReader {
  create<T extends KubeObject>(resource: ResourceDescriptor<T>, obj: T, options?: WriteOptions): Promise<T>;
  update<T extends KubeObject>(resource: ResourceDescriptor<T>, obj: T, options?: WriteOptions): Promise<T>;
  patch<T extends KubeObject>(
    resource: ResourceDescriptor<T>,
    nn: NamespacedName,
    patch: unknown,
    type: PatchType,
    options?: PatchOptions,
  ): Promise<T>;
  delete<T extends KubeObject>(resource: ResourceDescriptor<T>, nn: NamespacedName, options?: DeleteOptions): Promise<T | Status>;
  deleteCollection<T extends KubeObject>(
    resource: ResourceDescriptor<T>,
    options?: ListOptions & DeleteOptions,
  ): Promise<KubeList<T> | Status>;
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
    create: <T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: WriteOptions) => client.create(r, obj, o),
    update: <T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: WriteOptions) => client.update(r, obj, o),
    patch: <T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName, p: unknown, type: PatchType, o?: PatchOptions) =>
      client.patch(r, nn, p, type, o),
    delete: <T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName, o?: DeleteOptions) => client.delete(r, nn, o),
    deleteCollection: <T extends KubeObject>(r: ResourceDescriptor<T>, o?: ListOptions & DeleteOptions) => client.deleteCollection(r, o),
    status: () => status,
    apiReader,
  });
}
