/**
 * A `Client` that injects the faults an operator's failure tests need on top of a real one: a hook before
 * every write (throw to fail it — a conflict, a lost response — or await to delay it) and a hook before
 * every watch event is delivered (await to make the cache lag behind the server). Reads and lists pass
 * through untouched. Invariant: with no hooks set it behaves exactly like the client it wraps.
 */
import type { Client, WatchEvent, WatchOptions, WatchStream } from '../client/index.js';
import type { KubeObject, ResourceDescriptor } from '../meta/index.js';

/** One write the wrapped client is about to send. */
export interface ClientWrite {
  verb: 'create' | 'update' | 'updateStatus' | 'patch' | 'delete';
  resource: ResourceDescriptor;
  name: string;
  subresource?: string;
}

/** The hooks a `faultInjectingClient` runs before each write and before each watch event. */
export interface ClientFaults {
  /** Runs before each write; throwing fails the write (nothing is sent), awaiting delays it. */
  beforeWrite?: (w: ClientWrite) => void | Promise<void>;
  /** Runs before each watch event reaches the caller; awaiting it is how long the cache lags. */
  beforeWatchEvent?: (resource: ResourceDescriptor, event: WatchEvent) => void | Promise<void>;
}

/** Wraps a `Client` so tests can fail or delay its writes and delay its watch events. */
export function faultInjectingClient(base: Client, faults: ClientFaults): Client {
  const before = async (w: ClientWrite): Promise<void> => {
    await faults.beforeWrite?.(w);
  };
  const delay = faults.beforeWatchEvent;
  return {
    get: (r, nn, o) => base.get(r, nn, o),
    list: (r, o) => base.list(r, o),
    async watch<T extends KubeObject>(r: ResourceDescriptor<T>, o?: WatchOptions): Promise<WatchStream<T>> {
      const stream = await base.watch(r, o);
      if (!delay) return stream;
      return {
        close: () => stream.close(),
        async *[Symbol.asyncIterator]() {
          for await (const event of stream) {
            await delay(r as ResourceDescriptor, event as WatchEvent);
            yield event;
          }
        },
      };
    },
    async create(r, obj, o) {
      await before({ verb: 'create', resource: r as ResourceDescriptor, name: obj.metadata.name ?? '' });
      return base.create(r, obj, o);
    },
    async update(r, obj, o) {
      await before({ verb: 'update', resource: r as ResourceDescriptor, name: obj.metadata.name ?? '', subresource: o?.subresource });
      return base.update(r, obj, o);
    },
    async updateStatus(r, obj, o) {
      await before({ verb: 'updateStatus', resource: r as ResourceDescriptor, name: obj.metadata.name ?? '', subresource: 'status' });
      return base.updateStatus(r, obj, o);
    },
    async patch(r, nn, p, type, o) {
      await before({ verb: 'patch', resource: r as ResourceDescriptor, name: nn.name, subresource: o?.subresource });
      return base.patch(r, nn, p, type, o);
    },
    async delete(r, nn, o) {
      await before({ verb: 'delete', resource: r as ResourceDescriptor, name: nn.name });
      return base.delete(r, nn, o);
    },
    deleteCollection: (r, o) => base.deleteCollection(r, o),
  };
}
