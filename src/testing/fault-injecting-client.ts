/**
 * A `Client` that injects the faults an operator's failure tests need on top of a real one: hooks
 * before every write, list and watch (throw to fail the call — a conflict — or await to delay it),
 * after every write (throw to lose the response of a write that was applied), a hook before every watch event is delivered (await to make the cache lag behind the
 * server, or drop the event as a stalled connection loses it), and `endWatches()`, which ends every
 * open watch cleanly as the server does at its timeout. A constant `watchLag` delivers every watch
 * event a fixed time after it arrived (events keep flowing meanwhile, so the lag never builds up).
 * Gets pass through untouched. Invariant: with no hooks set and no watch ended it behaves exactly
 * like the client it wraps.
 */
import type { Client, ListOptions, WatchEvent, WatchOptions, WatchStream } from '../client/index.js';
import type { Clock, KubeObject, ResourceDescriptor } from '../meta/index.js';

/** One write the wrapped client is about to send. */
export interface ClientWrite {
  verb: 'create' | 'update' | 'updateStatus' | 'patch' | 'delete';
  resource: ResourceDescriptor;
  /** Absent for cluster-scoped kinds, and for a namespaced write that leaves it to the client's default. */
  namespace?: string | undefined;
  name: string;
  subresource?: string | undefined;
}

/** The hooks a `faultInjectingClient` runs before each write, list, watch and watch event. */
export interface ClientFaults {
  /** Runs before each write; throwing fails the write (nothing is sent), awaiting delays it. */
  beforeWrite?: (w: ClientWrite) => void | Promise<void>;
  /**
   * Runs after each write the server answered successfully; throwing replaces the answer with that
   * error while the write stays applied — a response lost on the way back.
   */
  afterWrite?: (w: ClientWrite) => void | Promise<void>;
  /**
   * Runs before each list request, once per page (`options.continue` is set on all pages but the
   * first); throwing fails it (nothing is sent), awaiting delays it.
   */
  beforeList?: (resource: ResourceDescriptor, options: ListOptions | undefined) => void | Promise<void>;
  /** Runs before each watch is opened; throwing fails it (nothing is sent), awaiting delays it. */
  beforeWatch?: (resource: ResourceDescriptor, options: WatchOptions | undefined) => void | Promise<void>;
  /**
   * Runs before each watch event reaches the caller; awaiting it is how long the cache lags, and
   * returning (or resolving to) `'drop'` loses the event in flight, as a stalled connection does.
   */
  beforeWatchEvent?: (resource: ResourceDescriptor, event: WatchEvent) => void | 'drop' | Promise<void | 'drop'>;
  /**
   * Delivers each watch event `ms` (on `clock`) after it arrived from the server, whatever came before
   * it: a cache that is always that far behind, as a busy API server or a slow network makes it.
   * Events are read ahead meanwhile, so they keep their order and the lag does not grow. Applied
   * before `beforeWatchEvent`.
   */
  watchLag?: { ms: number; clock: Clock };
}

/** The client `faultInjectingClient` returns: the wrapped one, plus control over its open watches. */
export interface FaultInjectingClient extends Client {
  /** Watches opened through this client that have neither ended nor been closed. */
  readonly openWatches: number;
  /**
   * Ends every open watch cleanly, as the server does when a watch times out: each stream finishes
   * without an error after the events it already delivered, and its connection is closed.
   */
  endWatches(): void;
}

/** Wraps a `Client` so tests can fail or delay its writes, lists and watches, and delay, drop or end its watch events. */
export function faultInjectingClient(base: Client, faults: ClientFaults): FaultInjectingClient {
  const open = new Set<() => void>();
  const write = async <R>(w: ClientWrite, send: () => Promise<R>): Promise<R> => {
    await faults.beforeWrite?.(w);
    const answer = await send();
    await faults.afterWrite?.(w);
    return answer;
  };
  return {
    get openWatches() {
      return open.size;
    },
    endWatches: () => {
      for (const end of [...open]) end();
    },
    get: (r, nn, o) => base.get(r, nn, o),
    async list(r, o) {
      await faults.beforeList?.(r as ResourceDescriptor, o);
      return base.list(r, o);
    },
    async watch<T extends KubeObject>(r: ResourceDescriptor<T>, o?: WatchOptions): Promise<WatchStream<T>> {
      await faults.beforeWatch?.(r as ResourceDescriptor, o);
      const onEvent = faults.beforeWatchEvent;
      const stream = await base.watch(r, o);
      return endableStream(
        faults.watchLag ? laggedStream(stream, faults.watchLag) : stream,
        open,
        onEvent && ((e) => onEvent(r as ResourceDescriptor, e as WatchEvent)),
      );
    },
    create: (r, obj, o) =>
      write({ verb: 'create', resource: r as ResourceDescriptor, namespace: obj.metadata.namespace, name: obj.metadata.name ?? '' }, () =>
        base.create(r, obj, o),
      ),
    update: (r, obj, o) =>
      write(
        {
          verb: 'update',
          resource: r as ResourceDescriptor,
          namespace: obj.metadata.namespace,
          name: obj.metadata.name ?? '',
          subresource: o?.subresource,
        },
        () => base.update(r, obj, o),
      ),
    updateStatus: (r, obj, o) =>
      write(
        {
          verb: 'updateStatus',
          resource: r as ResourceDescriptor,
          namespace: obj.metadata.namespace,
          name: obj.metadata.name ?? '',
          subresource: 'status',
        },
        () => base.updateStatus(r, obj, o),
      ),
    patch: (r, nn, p, type, o) =>
      write({ verb: 'patch', resource: r as ResourceDescriptor, namespace: nn.namespace, name: nn.name, subresource: o?.subresource }, () =>
        base.patch(r, nn, p, type, o),
      ),
    delete: (r, nn, o) =>
      write({ verb: 'delete', resource: r as ResourceDescriptor, namespace: nn.namespace, name: nn.name }, () => base.delete(r, nn, o)),
    deleteCollection: (r, o) => base.deleteCollection(r, o),
  };
}

// `stream`, registered in `open` until it ends, fails or is closed, so `endWatches` can end it; each
// event passes `onEvent` first when there is one. The decoded fast path is kept only without a hook,
// since it hands events over synchronously and could not wait for one.
function endableStream<T extends KubeObject>(
  stream: WatchStream<T>,
  open: Set<() => void>,
  onEvent: ((event: WatchEvent<T>) => void | 'drop' | Promise<void | 'drop'>) | undefined,
): WatchStream<T> {
  const events = stream[Symbol.asyncIterator]();
  const done: IteratorReturnResult<undefined> = { value: undefined, done: true };
  let ended = false;
  let wake: (() => void) | undefined;
  const end = (): void => {
    ended = true;
    open.delete(end);
    stream.close();
    wake?.(); // a caller waiting for the next event gets the end at once
  };
  open.add(end);
  const close = (): void => {
    open.delete(end);
    stream.close();
  };
  const drain = stream.drainDecoded?.bind(stream);
  return {
    close,
    ...(drain && !onEvent ? { drainDecoded: (fn: (e: WatchEvent<T>) => void, more: () => boolean) => (ended ? 0 : drain(fn, more)) } : {}),
    [Symbol.asyncIterator]: () => ({
      async next(): Promise<IteratorResult<WatchEvent<T>>> {
        for (;;) {
          if (ended) return done;
          const interrupted = new Promise<IteratorResult<WatchEvent<T>>>((resolve) => (wake = () => resolve(done)));
          let r: IteratorResult<WatchEvent<T>>;
          try {
            r = await Promise.race([events.next(), interrupted]);
          } catch (err) {
            open.delete(end); // a failed watch is no longer open; the caller sees the failure
            throw err;
          }
          if (ended) return done;
          if (r.done) {
            open.delete(end);
            return done;
          }
          if (onEvent && (await onEvent(r.value)) === 'drop') continue;
          return r;
        }
      },
      async return() {
        close();
        return done;
      },
    }),
  };
}

/**
 * `stream` with every event held until `lag.ms` after it was read. A pump reads ahead into a queue
 * stamped with arrival times; an error or the end is delivered in its place in the order, after the
 * same lag. Closing stops the pump and the stream.
 */
function laggedStream<T extends KubeObject>(stream: WatchStream<T>, lag: { ms: number; clock: Clock }): WatchStream<T> {
  type Arrival = { at: number } & ({ r: IteratorResult<WatchEvent<T>> } | { err: unknown });
  const arrived: Arrival[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  const source = stream[Symbol.asyncIterator]();
  void (async () => {
    for (;;) {
      let a: Arrival;
      try {
        const r = await source.next();
        a = { at: lag.clock.monotonicMs(), r };
      } catch (err) {
        a = { at: lag.clock.monotonicMs(), err };
      }
      arrived.push(a);
      wake?.();
      if (closed || !('r' in a) || a.r.done) return;
    }
  })();
  const close = (): void => {
    closed = true;
    stream.close();
  };
  return {
    close,
    [Symbol.asyncIterator]: () => ({
      async next(): Promise<IteratorResult<WatchEvent<T>>> {
        while (arrived.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        const a = arrived.shift()!;
        const wait = a.at + lag.ms - lag.clock.monotonicMs();
        if (wait > 0) await lag.clock.sleep(wait);
        if ('err' in a) throw a.err;
        return a.r;
      },
      async return() {
        close();
        return { value: undefined, done: true };
      },
    }),
  };
}
