/**
 * A `Client` wrapper for e2e fault injection on top of a real client: it records when lists and
 * watches were started, can silently drop watch events (a stalled connection whose bytes never
 * arrive) and can end every open watch cleanly (as the server does at its timeout).
 */
import type { Client, ListOptions, WatchEvent, WatchOptions, WatchStream } from 'kube-converge/client';
import type { KubeList, KubeObject, ResourceDescriptor } from 'kube-converge/meta';

export interface FaultyClient extends Client {
  readonly listTimes: number[];
  readonly watchTimes: number[];
  dropEvents: boolean;
  /** Watches whose response has started and that have not ended. */
  readonly openWatches: number;
  endWatches(): void;
}

export function faultyClient(inner: Client): FaultyClient {
  const open = new Set<() => void>();
  const self: FaultyClient = {
    listTimes: [],
    watchTimes: [],
    dropEvents: false,
    get openWatches() {
      return open.size;
    },
    endWatches: () => {
      for (const end of [...open]) end();
    },
    get: (r, nn, o) => inner.get(r, nn, o),
    create: (r, obj, o) => inner.create(r, obj, o),
    update: (r, obj, o) => inner.update(r, obj, o),
    updateStatus: (r, obj, o) => inner.updateStatus(r, obj, o),
    patch: (r, nn, p, t, o) => inner.patch(r, nn, p, t, o),
    delete: (r, nn, o) => inner.delete(r, nn, o),
    deleteCollection: (r, o) => inner.deleteCollection(r, o),
    list<T extends KubeObject>(r: ResourceDescriptor<T>, o?: ListOptions): Promise<KubeList<T>> {
      if (!o?.continue) self.listTimes.push(performance.now());
      return inner.list(r, o);
    },
    async watch<T extends KubeObject>(r: ResourceDescriptor<T>, o?: WatchOptions): Promise<WatchStream<T>> {
      self.watchTimes.push(performance.now());
      const stream = await inner.watch(r, o);
      const it = stream[Symbol.asyncIterator]();
      let ended = false;
      let wake: (() => void) | undefined;
      const end = (): void => {
        ended = true;
        stream.close();
        wake?.();
      };
      open.add(end);
      const wrapped: WatchStream<T> = {
        close: () => {
          open.delete(end);
          stream.close();
        },
        [Symbol.asyncIterator]: () => ({
          next: async (): Promise<IteratorResult<WatchEvent<T>>> => {
            for (;;) {
              if (ended) return { value: undefined, done: true };
              const ender = new Promise<IteratorResult<WatchEvent<T>>>((resolve) => (wake = () => resolve({ value: undefined, done: true })));
              const r = await Promise.race([it.next(), ender]);
              if (ended || r.done) {
                open.delete(end);
                return { value: undefined, done: true };
              }
              if (self.dropEvents && r.value.type !== 'ERROR') continue;
              return r;
            }
          },
          return: async () => {
            wrapped.close();
            return { value: undefined, done: true };
          },
        }),
      };
      return wrapped;
    },
  };
  return self;
}
