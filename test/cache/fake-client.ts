// Imports meta's internal (private) face for the annotation that ends a streaming initial list.
/**
 * An in-memory `Client` for cache unit tests: list and watch only, fully controllable. It keeps a
 * collection with a resourceVersion counter; writes through `upsert`/`remove` reach every open watch
 * (unless it is paused); tests can also push raw events into a watch, end it cleanly, fail it, or
 * queue errors for the next list/watch calls. Every call is recorded with its options.
 */
import { StatusError, type Client, type ListOptions, type WatchEvent, type WatchOptions, type WatchStream } from 'kube-converge/client';
import { objectKey, type KubeList, type KubeObject, type Status } from 'kube-converge/meta';
import { INITIAL_EVENTS_END_ANNOTATION } from '../../src/meta/internal.js';

export type Call = { verb: 'list'; options: ListOptions } | { verb: 'watch'; options: WatchOptions; stream: FakeWatch };

export function statusError(code: number, reason: string, extra: Partial<Status> = {}): StatusError {
  return new StatusError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code, reason, message: reason, ...extra });
}

export const goneStatus = (): Status => ({
  apiVersion: 'v1',
  kind: 'Status',
  metadata: {},
  status: 'Failure',
  code: 410,
  reason: 'Expired',
  message: 'too old resource version',
});

export class FakeWatch implements WatchStream<KubeObject> {
  #queue: WatchEvent[] = [];
  #waiter: ((r: IteratorResult<WatchEvent>) => void) | undefined;
  #failWaiter: ((e: unknown) => void) | undefined;
  #failure: unknown;
  #ended = false;
  closed = false;
  /** While paused, collection writes do not reach this watch (as if the connection hung). */
  paused = false;

  constructor(readonly options: WatchOptions) {}

  push(ev: WatchEvent): void {
    if (this.#ended) return;
    const w = this.#waiter;
    if (w) {
      this.#waiter = undefined;
      this.#failWaiter = undefined;
      w({ value: ev, done: false });
    } else this.#queue.push(ev);
  }

  /** The server ends the stream cleanly (e.g. its timeout). */
  end(): void {
    this.#ended = true;
    this.#settle();
  }

  /** The connection breaks: the next read rejects with `error` (after queued events). */
  fail(error: unknown): void {
    this.#failure = error;
    this.#ended = true;
    this.#settle();
  }

  close(): void {
    this.closed = true;
    this.#ended = true;
    this.#queue = [];
    this.#failure = undefined;
    this.#settle();
  }

  get ended(): boolean {
    return this.#ended;
  }

  #settle(): void {
    if (!this.#waiter || this.#queue.length > 0) return;
    const w = this.#waiter;
    const f = this.#failWaiter!;
    this.#waiter = undefined;
    this.#failWaiter = undefined;
    if (this.#failure !== undefined) f(this.#failure);
    else w({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return {
      next: () => {
        const ev = this.#queue.shift();
        if (ev) return Promise.resolve({ value: ev, done: false });
        if (this.#ended) {
          if (this.#failure !== undefined) {
            const f = this.#failure;
            this.#failure = undefined;
            return Promise.reject(f);
          }
          return Promise.resolve({ value: undefined, done: true });
        }
        return new Promise((resolve, reject) => {
          this.#waiter = resolve;
          this.#failWaiter = reject;
        });
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

export interface FakeClientOptions {
  /** How the fake answers `sendInitialEvents=true`: stream the collection, or reject with 422. */
  watchList?: 'supported' | 'rejected';
}

export class FakeClient implements Client {
  readonly calls: Call[] = [];
  readonly watches: FakeWatch[] = [];
  readonly objects = new Map<string, KubeObject>();
  rv = 100;
  /** Errors thrown by the next list calls, in order. */
  listErrors: unknown[] = [];
  /** Errors thrown by the next watch calls, in order. */
  watchErrors: unknown[] = [];
  readonly #watchList: 'supported' | 'rejected';
  #watchOpened: (() => void)[] = [];

  constructor(o: FakeClientOptions = {}) {
    this.#watchList = o.watchList ?? 'supported';
  }

  // ---- collection writes -------------------------------------------------------------------------

  upsert(obj: KubeObject): KubeObject {
    const key = objectKey(obj);
    const existed = this.objects.has(key);
    const stored = { apiVersion: 'v1', kind: 'ConfigMap', ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    this.objects.set(key, stored);
    this.broadcast({ type: existed ? 'MODIFIED' : 'ADDED', object: structuredClone(stored) });
    return stored;
  }

  remove(key: string): void {
    const old = this.objects.get(key);
    if (!old) throw new Error(`fake: no ${key}`);
    this.objects.delete(key);
    const gone = { ...old, metadata: { ...old.metadata, resourceVersion: String(++this.rv) } };
    this.broadcast({ type: 'DELETED', object: structuredClone(gone) });
  }

  broadcast(ev: WatchEvent): void {
    for (const w of this.watches) if (!w.ended && !w.paused) w.push(ev);
  }

  /** The newest watch. */
  get watch0(): FakeWatch {
    return this.watches[this.watches.length - 1]!;
  }

  lists(): ListOptions[] {
    return this.calls.flatMap((c) => (c.verb === 'list' ? [c.options] : []));
  }

  watchCalls(): WatchOptions[] {
    return this.calls.flatMap((c) => (c.verb === 'watch' ? [c.options] : []));
  }

  /** Resolves when the next watch is opened. */
  nextWatch(): Promise<FakeWatch> {
    const n = this.watches.length;
    return new Promise((resolve) => this.#watchOpened.push(() => resolve(this.watches[n]!)));
  }

  // ---- Client ------------------------------------------------------------------------------------

  async list<T extends KubeObject>(_r: unknown, o: ListOptions = {}): Promise<KubeList<T>> {
    const { signal: _signal, ...options } = o;
    this.calls.push({ verb: 'list', options });
    const err = this.listErrors.shift();
    if (err !== undefined) throw err;
    const all = [...this.objects.values()].sort((a, b) => objectKey(a).localeCompare(objectKey(b)));
    const start = o.continue ? Number(o.continue) : 0;
    const end = o.limit ? start + o.limit : all.length;
    const items = all.slice(start, end).map((x) => {
      const { apiVersion: _a, kind: _k, ...rest } = structuredClone(x);
      return rest as T;
    });
    const metadata: KubeList['metadata'] = { resourceVersion: String(this.rv) };
    if (end < all.length) metadata.continue = String(end);
    return { apiVersion: 'v1', kind: 'List', metadata, items };
  }

  async watch<T extends KubeObject>(_r: unknown, o: WatchOptions = {}): Promise<WatchStream<T>> {
    const { signal, ...options } = o;
    const err = this.watchErrors.shift();
    const stream = new FakeWatch(options);
    this.calls.push({ verb: 'watch', options, stream });
    if (err !== undefined) throw err;
    if (o.sendInitialEvents) {
      if (this.#watchList === 'rejected') throw statusError(422, 'Invalid');
      for (const obj of this.objects.values()) stream.push({ type: 'ADDED', object: structuredClone(obj) });
      stream.push({
        type: 'BOOKMARK',
        object: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { resourceVersion: String(this.rv), annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } },
        },
      });
    }
    signal?.addEventListener('abort', () => stream.close(), { once: true });
    this.watches.push(stream);
    for (const f of this.#watchOpened.splice(0)) f();
    return stream as unknown as WatchStream<T>;
  }

  get(): never {
    throw new Error('fake: get not supported');
  }
  create(): never {
    throw new Error('fake: create not supported');
  }
  update(): never {
    throw new Error('fake: update not supported');
  }
  updateStatus(): never {
    throw new Error('fake: updateStatus not supported');
  }
  patch(): never {
    throw new Error('fake: patch not supported');
  }
  delete(): never {
    throw new Error('fake: delete not supported');
  }
  deleteCollection(): never {
    throw new Error('fake: deleteCollection not supported');
  }
}

/** Lets promise callbacks and setImmediate rounds run (what the informer's drains and the reflector use). */
export async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export const cm = (
  name: string,
  data: Record<string, string> = {},
  namespace = 'default',
  labels?: Record<string, string>,
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace, name, ...(labels ? { labels } : {}) },
  data,
});
