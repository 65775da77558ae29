/**
 * The manager client's side of read-your-writes: every successful write made during a reconcile
 * (create, update, patch, delete, status included) is noted for the controller, together with how to
 * tell that the shared cache has observed it. Observed means the cache holds the object at the
 * written resourceVersion or newer, or no longer holds it after a delete (or holds a newer object of
 * the same name), or does not cache that kind or namespace at all — then there is nothing to wait
 * for. Invariant: reads and the writes themselves pass through unchanged; only bookkeeping is added.
 *
 * resourceVersions are opaque by contract, but every API server backed by etcd hands out its
 * revision, an integer that grows with every write, and Kubernetes' own controllers compare them to
 * detect a stale cache. When both versions are integers they are compared as such; otherwise the
 * write counts as observed once the cache holds a version other than the one it held before the write.
 */
import { noteReconcileWrite } from '../../controller/internal.js';
import type { KubeObject, NamespacedName, ResourceDescriptor, Status } from '../../meta/index.js';
import type { InformerCache } from './informer-cache.js';
import type { ManagerClient, StatusWriter } from './split-client.js';

/** `client` with each write of a reconcile noted, to be checked against `cache`. */
export function withReadYourWrites(client: ManagerClient, cache: InformerCache): ManagerClient {
  const note = async <R extends KubeObject | Status>(r: ResourceDescriptor, nn: NamespacedName, write: () => Promise<R>): Promise<R> => {
    const before = cachedObject(cache, r, nn);
    const written = await write();
    noteReconcileWrite(writeOf(cache, r, nn, before, written));
    return written;
  };
  const named = (obj: KubeObject): NamespacedName => ({ namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' });
  const status: StatusWriter = Object.freeze({
    update: (r, obj, o) => note(r as ResourceDescriptor, named(obj), () => client.status().update(r, obj, o)),
    patch: (r, nn, p, type, o) => note(r as ResourceDescriptor, nn, () => client.status().patch(r, nn, p, type, o)),
  } satisfies StatusWriter);
  return Object.freeze({
    ...client,
    create: (r, obj, o) => note(r as ResourceDescriptor, named(obj), () => client.create(r, obj, o)),
    update: (r, obj, o) => note(r as ResourceDescriptor, named(obj), () => client.update(r, obj, o)),
    patch: (r, nn, p, type, o) => note(r as ResourceDescriptor, nn, () => client.patch(r, nn, p, type, o)),
    delete: (r, nn, o) => note(r as ResourceDescriptor, nn, () => client.delete(r, nn, o)),
    status: () => status,
  } satisfies ManagerClient);
}

function cachedObject(cache: InformerCache, r: ResourceDescriptor, nn: NamespacedName): KubeObject | undefined {
  if (!nn.name) return undefined; // a create with generateName: nothing of that name can be cached
  const seen = cache.peek(r, nn);
  return seen.informer === 'synced' ? seen.object : undefined;
}

/** The write of `written` (an object, or the Status of a delete that took effect at once), as the controller checks it. */
function writeOf(
  cache: InformerCache,
  r: ResourceDescriptor,
  requested: NamespacedName,
  before: KubeObject | undefined,
  written: KubeObject | Status,
): { object: string; observed(): boolean } {
  const obj = written.kind === 'Status' ? undefined : (written as KubeObject);
  const nn = obj ? { namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? requested.name } : requested;
  // A delete that took effect, or a write that dropped the last finalizer of an object being deleted.
  const gone = !obj || (obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).length === 0);
  const uid = obj?.metadata.uid ?? before?.metadata.uid;
  const version = obj?.metadata.resourceVersion;
  return {
    object: `${r.kind} ${nn.namespace ? `${nn.namespace}/` : ''}${nn.name}`,
    observed(): boolean {
      const seen = cache.peek(r, nn);
      if (seen.informer !== 'synced') return seen.informer !== 'syncing'; // a kind or namespace not cached: nothing to wait for
      const cached = seen.object;
      if (!cached) return gone;
      if (uid !== undefined && cached.metadata.uid !== uid) return true; // replaced by a newer object
      if (gone || version === undefined) return false;
      return atLeast(cached.metadata.resourceVersion, version, before?.metadata.resourceVersion);
    },
  };
}

const INTEGER = /^[0-9]+$/;

/** Whether the cached resourceVersion is the written one or newer (see the file comment for non-integers). */
function atLeast(cached: string | undefined, written: string, before: string | undefined): boolean {
  if (cached === undefined) return false;
  if (cached === written) return true;
  if (INTEGER.test(cached) && INTEGER.test(written)) return BigInt(cached) >= BigInt(written);
  return cached !== before;
}
