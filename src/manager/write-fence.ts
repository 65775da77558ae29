/**
 * The write fence of the manager's client: every write (create, update, patch, delete,
 * deleteCollection, and the status writes) asks `refuse` first, synchronously, at the moment it is
 * made, and is rejected locally with the error `refuse` returns — it is never sent. Writes that pass
 * also carry the fence's `signal` (merged with the caller's), so a request still in flight, or a
 * transport retry waiting to be sent, is cut when the fence closes. Reads pass through untouched.
 *
 * Invariant: a write refused here never reaches the network. What it cannot promise: a write that
 * passed the check an instant before the fence closed may still arrive after (the bytes may already be
 * in the socket when the process is frozen); only a precondition the server checks would close that gap.
 */
import type { KubeObject, NamespacedName, ResourceDescriptor } from '../meta/index.js';
import type { ManagerClient, StatusWriter } from './cache/index.js';

/** One write the fence is asked about. */
export interface WriteAttempt {
  readonly verb: 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
  readonly resource: ResourceDescriptor;
  /** '' for cluster-scoped objects and for a collection delete across namespaces. */
  readonly namespace: string;
  /** '' for a collection delete, or a create by `generateName`. */
  readonly name: string;
  readonly subresource?: 'status';
}

/** What the fence decides with. */
export interface WriteFence {
  /** The error to reject this write with, or undefined to send it. Must be synchronous and cheap. */
  refuse(attempt: WriteAttempt): Error | undefined;
  /** Aborts when the fence closes for this write; undefined while there is nothing to close (no leader election, no shard held). */
  signal(attempt: WriteAttempt): AbortSignal | undefined;
}

/** `client` with every write checked by `fence` before it is sent. */
export function withWriteFence(client: ManagerClient, fence: WriteFence): ManagerClient {
  const guarded = <T>(attempt: WriteAttempt, send: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> => {
    const refused = fence.refuse(attempt);
    if (refused) return Promise.reject(refused);
    return send(fence.signal(attempt));
  };
  const at = (r: ResourceDescriptor<KubeObject>, nn: NamespacedName): Pick<WriteAttempt, 'resource' | 'namespace' | 'name'> => ({
    resource: r as ResourceDescriptor,
    namespace: nn.namespace ?? '',
    name: nn.name,
  });
  const of = (obj: KubeObject): NamespacedName => ({ namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' });
  const status: StatusWriter = Object.freeze({
    update: (r, obj, o) =>
      guarded({ verb: 'update', subresource: 'status', ...at(r, of(obj)) }, (s) => client.status().update(r, obj, withSignal(o, s))),
    patch: (r, nn, p, type, o) =>
      guarded({ verb: 'patch', subresource: 'status', ...at(r, nn) }, (s) => client.status().patch(r, nn, p, type, withSignal(o, s))),
  } satisfies StatusWriter);
  return Object.freeze({
    ...client,
    create: (r, obj, o) => guarded({ verb: 'create', ...at(r, of(obj)) }, (s) => client.create(r, obj, withSignal(o, s))),
    update: (r, obj, o) => guarded({ verb: 'update', ...at(r, of(obj)) }, (s) => client.update(r, obj, withSignal(o, s))),
    patch: (r, nn, p, type, o) => guarded({ verb: 'patch', ...at(r, nn) }, (s) => client.patch(r, nn, p, type, withSignal(o, s))),
    delete: (r, nn, o) => guarded({ verb: 'delete', ...at(r, nn) }, (s) => client.delete(r, nn, withSignal(o, s))),
    deleteCollection: (r, o) =>
      guarded({ verb: 'deletecollection', ...at(r, { namespace: o?.namespace ?? '', name: '' }) }, (s) =>
        client.deleteCollection(r, withSignal(o, s)),
      ),
    status: () => status,
  } satisfies ManagerClient);
}

/** The caller's options with the fence's signal merged into theirs; unchanged when there is no fence signal. */
function withSignal<O extends { signal?: AbortSignal | undefined }>(o: O | undefined, fence: AbortSignal | undefined): O | undefined {
  if (!fence) return o;
  const signal = o?.signal ? AbortSignal.any([o.signal, fence]) : fence;
  return { ...(o ?? ({} as O)), signal };
}
