/**
 * The FIFO between the reflector and the informer: client-go's `RealFIFO` in atomic mode (the default
 * since 1.36, client-go's `AtomicFIFO` feature gate: `tools/cache/the_real_fifo.go` in
 * https://github.com/kubernetes/client-go). Every notification is kept as its own delta, in arrival
 * order, with no per-key merging; a relist is one `ReplacedAll` delta and a resync one `SyncAll` delta,
 * so the sink applies each atomically and can diff a relist against its store to produce tombstones.
 * Data flows one way: the FIFO pushes into its sink and never calls back into its producer or its owner.
 *
 *   reflector ── add/update/delete/replace/resync/bookmark ──▶ [ d0 d1 d2 … ] ──▶ sink.apply(delta)
 *                 (transform and key here, so a bad object        (drained inline when nothing is
 *                  fails in the producer's call)                   queued ahead; a backlog continues
 *                                                                  batch by batch after other I/O)
 *
 * Invariants: deltas reach the sink exactly once and in the order they were queued; `hasSynced()` is
 * true only once the deltas queued up to and including the first `replace` have been applied (the
 * reflector always populates with a `replace` before any watch event); a `SyncAll` is applied after
 * every delta queued before it, so a resync never carries state older than an event already queued.
 * Objects in watch deltas are transformed but not frozen: the sink freezes what it stores. A relist is
 * received object by object (`startReplace`), each transformed, keyed and handed to the sink's
 * `prepareListed` as it arrives, so the raw objects of one LIST page or streaming-list event die with
 * it instead of all of them living until the list ends (that was the relist's peak heap).
 * Back-pressure: above `highWater` queued deltas the producer is asked to wait (`waitForRoom`).
 */
import { type KubeObject } from '../meta/index.js';
import { requireInt } from '../meta/internal.js';
import { deletionHandlingKey } from './tombstone.js';

/** client-go's delta types. `ReplacedAll`, `SyncAll` and `Bookmark` are the atomic FIFO's forms. */
export type DeltaType = Delta['type'];

/**
 * One change the FIFO hands its sink: an object-level delta keyed by `namespace/name`, or one of the
 * atomic whole-collection forms (a relist's `ReplacedAll`, a resync's `SyncAll`, a `Bookmark`).
 */
export type Delta<T extends KubeObject = KubeObject> =
  // Atomic mode has no per-object `Replaced` or `Sync` (a relist and a resync are one delta each), and
  // `Deleted` carries the object the watch reported: a relist's tombstones are made by the sink, from
  // its own store, and are never queued here.
  | { readonly type: 'Added' | 'Updated' | 'Deleted'; readonly key: string; readonly object: T }
  | { readonly type: 'ReplacedAll'; readonly resourceVersion: string; readonly objects: Map<string, T> }
  | { readonly type: 'SyncAll' }
  | { readonly type: 'Bookmark'; readonly resourceVersion: string };

/** Where the FIFO pushes: the informer's delta processing. Called only from the FIFO's drain. */
export interface DeltaSink<T extends KubeObject> {
  /** Applies one delta. `isInInitialList` is `!hasSynced()` as the delta is handed over. */
  apply(delta: Delta<T>, isInInitialList: boolean): void;
  /** `apply` threw for `delta`; the FIFO goes on with the next one, so nothing queued is lost. */
  applyFailed(error: unknown, delta: Delta<T>): void;
  /** A batch of deltas was applied; `synced` is the FIFO's `hasSynced()` after it. */
  batchApplied(synced: boolean): void;
  /**
   * Makes one object of a relist ready to be kept, as it arrives and long before the relist is
   * applied (the informer freezes it here, or takes the equal object its store holds); what it
   * returns is what the `ReplacedAll` delta carries. Without it, relist objects are queued as given.
   */
  prepareListed?(key: string, obj: T): T;
}

/** A relist being received: objects go in as they arrive and `commit` queues them as one `ReplacedAll`. */
export interface ReplaceBuilder<T extends KubeObject> {
  /** Transforms, keys and prepares `obj` now; a later object with the same key replaces it. */
  add(obj: T): void;
  /** Takes out the object with `obj`'s key (a streaming list's DELETED event). */
  delete(obj: T): void;
  /** Objects received so far. */
  readonly size: number;
  /** Queues everything received as the complete content at `resourceVersion`; the builder is done. */
  commit(resourceVersion: string): void;
}

/** The sink a `RealFIFO` drains into, with its back-pressure and batching limits and the per-object transform. */
export interface RealFIFOOptions<T extends KubeObject> {
  sink: DeltaSink<T>;
  /** Queued deltas beyond which `waitForRoom` makes the producer wait; default 1000. */
  highWater?: number;
  /** Deltas applied per turn before a backlog lets other I/O have the event loop; default 1000. */
  batch?: number;
  /** Applied to every incoming object before it is queued (e.g. strip managedFields). */
  transform?: ((obj: T) => T) | undefined;
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
  /** A drain is running or a backlog's next batch is scheduled: new deltas queue behind it. */
  #draining = false;
  #room: { promise: Promise<void>; resolve: () => void } | undefined;
  readonly #sink: DeltaSink<T>;
  readonly #highWater: number;
  readonly #batch: number;
  readonly #transform: ((obj: T) => T) | undefined;
  readonly #onRejected: ((error: unknown, obj: T) => void) | undefined;

  constructor(o: RealFIFOOptions<T>) {
    this.#sink = o.sink;
    this.#onRejected = o.onRejected;
    this.#transform = o.transform;
    this.#highWater = o.highWater ?? 1000;
    this.#batch = o.batch ?? 1000;
    requireInt('highWater', this.#highWater, { min: 1 });
    requireInt('batch', this.#batch, { min: 1 });
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
    this.#pushObject('Added', obj);
  }

  update(obj: T): void {
    this.#pushObject('Updated', obj);
  }

  delete(obj: T): void {
    this.#pushObject('Deleted', obj);
  }

  /** A full relist: the complete content at `resourceVersion`, applied by the sink in one step. */
  replace(list: readonly T[], resourceVersion: string): void {
    const relist = this.startReplace();
    for (const item of list) relist.add(item);
    relist.commit(resourceVersion);
  }

  /** Starts receiving a relist; nothing is queued until `commit`, and a builder dropped uncommitted changes nothing. */
  startReplace(): ReplaceBuilder<T> {
    const objects = new Map<string, T>();
    return {
      add: (obj) => this.#prepareInto(objects, obj),
      delete: (obj) => void objects.delete(deletionHandlingKey(obj)),
      get size() {
        return objects.size;
      },
      commit: (resourceVersion) => this.#queueReplace(objects, resourceVersion),
    };
  }

  #queueReplace(objects: Map<string, T>, resourceVersion: string): void {
    if (!this.#populated) {
      this.#populated = true;
      // Atomic mode: the initial population is everything queued up to and including the first relist.
      // Counted before the push, because the sink may apply the delta within it.
      this.#initialPopulationCount = this.length + 1;
    }
    this.#push({ type: 'ReplacedAll', resourceVersion, objects });
  }

  /** Asks the sink to re-deliver its store (as it is when this delta is applied). */
  resync(): void {
    this.#push({ type: 'SyncAll' });
  }

  bookmark(resourceVersion: string): void {
    this.#push({ type: 'Bookmark', resourceVersion });
  }

  /**
   * Back-pressure for the producer: `undefined` while fewer than `highWater` deltas are queued (the
   * common case, no allocation), else a promise that resolves once the sink has applied enough to fall below it.
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

  /** Marks the end: nothing more is applied, and `waitForRoom` resolves at once from now on. */
  close(): void {
    this.#closed = true;
    this.#makeRoom();
  }

  // ---- consumer side (the sink) -----------------------------------------------------------------

  /**
   * Applies up to a batch of queued deltas; a larger backlog continues after other I/O had its turn.
   * Runs in the producer's call when a delta lands with nothing ahead of it: applying is cheap and
   * synchronous (store write, then pushes into handler buffers; handlers run later, in their own
   * microtasks), so this saves a hop per event, and an old object dies young, in the same scavenge
   * as the parse garbage.
   */
  readonly #drain = (): void => {
    if (this.#closed) return;
    this.#draining = true;
    const sink = this.#sink;
    // Deltas queued while this batch runs (the tail moves) are applied in it too, up to the batch size.
    for (let n = 0; n < this.#batch && this.#head < this.#tail; n++) {
      const i = this.#head++;
      const delta = this.#queue[i]!;
      this.#queue[i] = undefined;
      try {
        sink.apply(delta, !this.hasSynced());
      } catch (error) {
        sink.applyFailed(error, delta);
      }
      if (this.#initialPopulationCount > 0) this.#initialPopulationCount--;
    }
    this.#compact();
    if (this.length < this.#highWater) this.#makeRoom();
    sink.batchApplied(this.hasSynced());
    if (this.length > 0) setImmediate(this.#drain);
    else this.#draining = false;
  };

  // ---- internals ---------------------------------------------------------------------------------

  /** Transforms and keys a watched object, then queues it: the one place an object-level delta is made. */
  #pushObject(type: 'Added' | 'Updated' | 'Deleted', obj: T): void {
    const raw = this.#transform ? this.#transform(obj) : obj;
    this.#push({ type, key: deletionHandlingKey(raw), object: raw });
  }

  /** Transforms, keys and prepares one relist object; with `onRejected`, one that fails is reported and left out. */
  #prepareInto(objects: Map<string, T>, item: T): void {
    const onRejected = this.#onRejected;
    if (!onRejected) return this.#prepareOne(objects, item);
    try {
      this.#prepareOne(objects, item);
    } catch (error) {
      onRejected(error, item);
    }
  }

  #prepareOne(objects: Map<string, T>, item: T): void {
    const raw = this.#transform ? this.#transform(item) : item;
    const key = deletionHandlingKey(raw);
    const sink = this.#sink;
    objects.set(key, sink.prepareListed ? sink.prepareListed(key, raw) : raw);
  }

  #push(delta: Delta<T>): void {
    this.#queue[this.#tail++] = delta;
    if (!this.#draining) this.#drain();
  }

  #compact(): void {
    if (this.#head === this.#tail) {
      this.#head = this.#tail = 0;
      // A backlog's long array is let go; the short one of the steady state is kept for reuse.
      if (this.#queue.length > COMPACT_AFTER) this.#queue = [];
    } else if (this.#head > COMPACT_AFTER && this.#head * 2 > this.#tail) {
      this.#queue = this.#queue.slice(this.#head, this.#tail);
      this.#tail -= this.#head;
      this.#head = 0;
    }
  }

  #makeRoom(): void {
    const room = this.#room;
    if (room) {
      this.#room = undefined;
      room.resolve();
    }
  }
}
