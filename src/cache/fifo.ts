/**
 * The FIFO between the reflector and the informer: client-go's `RealFIFO` in atomic mode (the default
 * since 1.36, client-go's `AtomicFIFO` feature gate: `tools/cache/the_real_fifo.go` in
 * https://github.com/kubernetes/client-go). Every notification is kept as its own delta, in arrival
 * order, with no per-key merging; a relist is one `ReplacedAll` delta and a resync one `SyncAll` delta, so the
 * informer applies each atomically and can diff a relist against its store to produce tombstones.
 *
 *   reflector ── add/update/delete/replace/resync/bookmark ──▶ [ d0 d1 d2 … ] ──▶ drain(process)
 *                 (transform + deep-freeze happen here,                            (the informer)
 *                  once per object, before anything stores it)
 *
 * Invariants: deltas reach `process` exactly once and in the order they were queued; `hasSynced()` is
 * true only once the deltas queued up to and including the first `replace` have been processed (the
 * reflector always populates with a `replace` before any watch event); a `SyncAll` is processed after
 * every delta queued before it, so a resync never carries state older than an event already queued.
 * Back-pressure: above `highWater` queued deltas the producer is asked to wait (`waitForRoom`).
 */
import type { KubeObject } from '../meta/index.js';
import { deletionHandlingKey } from './tombstone.js';
import type { DeletedFinalStateUnknown } from './types.js';

/** client-go's delta types. `ReplacedAll`, `SyncAll` and `Bookmark` are the atomic FIFO's forms. */
export type DeltaType = 'Added' | 'Updated' | 'Deleted' | 'Replaced' | 'Sync' | 'ReplacedAll' | 'SyncAll' | 'Bookmark';

export type Delta<T extends KubeObject = KubeObject> =
  | { readonly type: 'Added' | 'Updated' | 'Replaced' | 'Sync'; readonly key: string; readonly object: T }
  | { readonly type: 'Deleted'; readonly key: string; readonly object: T | DeletedFinalStateUnknown<T> }
  | { readonly type: 'ReplacedAll'; readonly resourceVersion: string; readonly objects: Map<string, T> }
  | { readonly type: 'SyncAll' }
  | { readonly type: 'Bookmark'; readonly resourceVersion: string };

export interface RealFIFOOptions<T extends KubeObject> {
  /**
   * Called (synchronously, from the producer) each time a delta lands in an empty FIFO: the consumer
   * drains from here, at once or scheduled. Cheaper than a promise per wake-up on the hot path.
   */
  onNonEmpty: () => void;
  /** Queued deltas beyond which `waitForRoom` makes the producer wait; default 1000. */
  highWater?: number;
  /** Applied to every incoming object before it is frozen and queued (e.g. strip managedFields). */
  transform?: (obj: T) => T;
  /**
   * Makes an object immutable; applied after `transform`, with the object's key (the informer uses
   * it to hand back the version it already stores when the resourceVersion is the same).
   */
  freeze: (obj: T, key: string) => T;
  /**
   * Called when `transform` (or the key function) throws for one object of a `replace`; that object
   * is left out of the relist and the rest goes on. Without it, the error propagates.
   */
  onRejected?: (error: unknown, obj: T) => void;
}

/** Compact the backing array once this many consumed slots sit at its front. */
const COMPACT_AFTER = 4096;

export class RealFIFO<T extends KubeObject = KubeObject> {
  /**
   * Slots `[#head, #tail)` hold the queued deltas. The array is reused when it empties (consumed slots
   * are cleared, not dropped), so the common one-delta-at-a-time path allocates no array per event.
   */
  #queue: (Delta<T> | undefined)[] = [];
  #head = 0;
  #tail = 0;
  #populated = false;
  #initialPopulationCount = 0;
  #closed = false;
  #room: { promise: Promise<void>; resolve: () => void } | undefined;
  readonly #highWater: number;
  readonly #transform: ((obj: T) => T) | undefined;
  readonly #freeze: (obj: T, key: string) => T;
  readonly #onNonEmpty: () => void;
  readonly #onRejected: ((error: unknown, obj: T) => void) | undefined;

  constructor(o: RealFIFOOptions<T>) {
    this.#onRejected = o.onRejected;
    this.#onNonEmpty = o.onNonEmpty;
    this.#transform = o.transform;
    this.#freeze = o.freeze;
    this.#highWater = o.highWater ?? 1000;
  }

  /** Deltas queued and not yet processed. */
  get length(): number {
    return this.#tail - this.#head;
  }

  hasSynced(): boolean {
    return this.#populated && this.#initialPopulationCount === 0;
  }

  // ---- producer side (the reflector) -------------------------------------------------------------

  add(obj: T): void {
    const raw = this.#transform ? this.#transform(obj) : obj;
    const key = deletionHandlingKey(raw);
    this.#push({ type: 'Added', key, object: this.#freeze(raw, key) });
  }

  update(obj: T): void {
    const raw = this.#transform ? this.#transform(obj) : obj;
    const key = deletionHandlingKey(raw);
    this.#push({ type: 'Updated', key, object: this.#freeze(raw, key) });
  }

  delete(obj: T): void {
    const raw = this.#transform ? this.#transform(obj) : obj;
    const key = deletionHandlingKey(raw);
    this.#push({ type: 'Deleted', key, object: this.#freeze(raw, key) });
  }

  /** A full relist: the complete content at `resourceVersion`, applied by the informer in one step. */
  replace(list: readonly T[], resourceVersion: string): void {
    const objects = new Map<string, T>();
    const onRejected = this.#onRejected;
    for (const item of list) {
      if (!onRejected) {
        this.#prepareInto(objects, item);
        continue;
      }
      try {
        this.#prepareInto(objects, item);
      } catch (error) {
        onRejected(error, item);
      }
    }
    if (!this.#populated) {
      this.#populated = true;
      // Atomic mode: the initial population is everything queued up to and including the first relist.
      // Counted before the push, because the consumer may apply the delta within it.
      this.#initialPopulationCount = this.length + 1;
    }
    this.#push({ type: 'ReplacedAll', resourceVersion, objects });
  }

  /** Asks the informer to re-deliver its store (as it is when this delta is processed). */
  resync(): void {
    this.#push({ type: 'SyncAll' });
  }

  bookmark(resourceVersion: string): void {
    this.#push({ type: 'Bookmark', resourceVersion });
  }

  /**
   * Back-pressure for the producer: `undefined` while fewer than `highWater` deltas are queued (the
   * common case, no allocation), else a promise that resolves once the consumer has drained below it.
   * The reflector waits on it before reading the next watch event, so a burst stays in the socket
   * (where the client pauses reading) instead of piling up here.
   */
  waitForRoom(): Promise<void> | undefined {
    if (this.length < this.#highWater || this.#closed) return undefined;
    if (!this.#room) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.#room = { promise, resolve };
    }
    return this.#room.promise;
  }

  /** Marks the end of intake; `waitForRoom` resolves at once from now on. */
  close(): void {
    this.#closed = true;
    this.#makeRoom();
  }

  // ---- consumer side (the informer; one consumer) ------------------------------------------------

  /**
   * Hands up to `max` queued deltas to `process` in order. `isInInitialList` is `!hasSynced()` at the
   * time each delta is handed over. An exception from `process` goes to `onError` and the next delta
   * is processed: nothing queued is ever lost. Returns how many deltas were processed.
   */
  drain(
    process: (delta: Delta<T>, isInInitialList: boolean) => void,
    onError: (error: unknown, delta: Delta<T>) => void,
    max: number,
  ): number {
    const queue = this.#queue;
    const end = Math.min(this.#tail, this.#head + max);
    const start = this.#head;
    for (let i = start; i < end; i++) {
      const delta = queue[i]!;
      queue[i] = undefined;
      this.#head = i + 1;
      try {
        process(delta, !this.hasSynced());
      } catch (error) {
        onError(error, delta);
      }
      if (this.#initialPopulationCount > 0) this.#initialPopulationCount--;
    }
    if (this.#head === this.#tail) {
      this.#head = this.#tail = 0;
      // A backlog's long array is let go; the short one of the steady state is kept for reuse.
      if (this.#queue.length > COMPACT_AFTER) this.#queue = [];
    } else if (this.#head > COMPACT_AFTER && this.#head * 2 > this.#tail) {
      this.#queue = this.#queue.slice(this.#head, this.#tail);
      this.#tail -= this.#head;
      this.#head = 0;
    }
    if (this.length < this.#highWater) this.#makeRoom();
    return end - start;
  }

  // ---- internals ---------------------------------------------------------------------------------

  #prepareInto(objects: Map<string, T>, item: T): void {
    const raw = this.#transform ? this.#transform(item) : item;
    const key = deletionHandlingKey(raw);
    objects.set(key, this.#freeze(raw, key));
  }

  #push(delta: Delta<T>): void {
    this.#queue[this.#tail++] = delta;
    if (this.#tail - this.#head === 1) this.#onNonEmpty();
  }

  #makeRoom(): void {
    const room = this.#room;
    if (room) {
      this.#room = undefined;
      room.resolve();
    }
  }
}
