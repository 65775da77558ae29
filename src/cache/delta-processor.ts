/**
 * The informer's delta processing: the FIFO's sink. It applies each delta to the indexed store and then
 * hands the matching notification to every listener's buffer, synchronously, so the store and the
 * notifications can never disagree and a reader never sees a half-applied relist.
 *
 *   RealFIFO ──apply(delta)──▶ freeze ──▶ IndexedStore (write) ──▶ ProcessorListener × N
 *
 * Freezing happens here, once per object, in tests and development (the `freeze` option; production
 * stores objects as decoded, sharing the parts equal to the stored version and managedFields' empty
 * objects: `shareWithStored`): a watched object just before the store keeps it, a relisted
 * one as it arrives (`prepareListed`, called by the FIFO for each object of a LIST page or streaming
 * list, so the relist in the making holds frozen, transformed objects and not raw ones). An object
 * whose key the store already holds at the same resourceVersion is not frozen again: the stored
 * (equal) object is reused, so a relist after a reconnect freezes and allocates only what changed,
 * and an unchanged object keeps its identity. A relist (`ReplacedAll`) is applied as in client-go: keys missing from
 * the new list become `DeletedFinalStateUnknown` tombstones carrying the last cached state, the store
 * is replaced in one step, then deletes fire, then adds/updates in list order. An update whose
 * resourceVersion did not change (a duplicate event, an unchanged object in a relist) carries no news
 * and is not delivered. A `SyncAll` re-delivers every cached object as `onUpdate(obj, obj)` to exactly
 * the listeners that were due when it was queued (`queueResync`, in the same order as the FIFO).
 *
 * Invariant: nothing here calls upstream; the only outputs are the store and the listeners' buffers.
 */
import { type KubeObject, type Logger } from '../meta/index.js';
import { deepFreezeFresh } from '../meta/internal.js';
import { shareWithStored } from './freeze-policy.js';
import type { Delta } from './fifo.js';
import type { IndexedStore } from './indexer.js';
import type { Notification, ProcessorListener } from './processor-listener.js';
import { deletedFinalStateUnknown } from './tombstone.js';
import type { DeletedFinalStateUnknown } from './types.js';

export class DeltaProcessor<T extends KubeObject> {
  /** Replaced, never mutated, so a distribution in progress keeps the array it started with. */
  listeners: readonly ProcessorListener<T>[] = [];
  readonly #indexer: IndexedStore<T>;
  readonly #log: Logger;
  /** The listeners due at each queued `SyncAll`, oldest first (the FIFO keeps the deltas in the same order). */
  readonly #pendingSyncs: ProcessorListener<T>[][] = [];
  /** What a fresh object becomes before it is stored (`stored`: the version the store holds): deep-frozen, or as decoded sharing what is equal. */
  readonly #seal: (raw: T, stored: T | undefined) => T;

  /** `freeze`: deep-freeze every stored object (tests and development), or store it as decoded (production). */
  constructor(indexer: IndexedStore<T>, log: Logger, freeze: boolean) {
    this.#indexer = indexer;
    this.#log = log;
    this.#seal = freeze ? (deepFreezeFresh as (raw: T) => T) : shareWithStored;
  }

  addListener(listener: ProcessorListener<T>): void {
    this.listeners = [...this.listeners, listener];
  }

  removeListener(listener: ProcessorListener<T>): void {
    this.listeners = this.listeners.filter((l) => l !== listener);
  }

  /** Names the listeners the next queued `SyncAll` is for; call just before queueing it. */
  queueResync(due: ProcessorListener<T>[]): void {
    this.#pendingSyncs.push(due);
  }

  /** Applies one delta to the store and distributes its notifications. The hot path. */
  readonly apply = (delta: Delta<T>, isInInitialList: boolean): void => {
    const indexer = this.#indexer;
    switch (delta.type) {
      case 'Added':
      case 'Updated': {
        const prev = indexer.getByKey(delta.key);
        const obj = this.#reuseOrSeal(prev, delta.object);
        indexer.upsert(delta.key, obj);
        if (prev === undefined) this.#distribute({ kind: 'add', obj, isInInitialList });
        else if (!isSyncUpdate(prev, obj)) this.#distribute({ kind: 'update', old: prev, obj });
        return;
      }
      case 'Deleted': {
        const obj = this.#reuseOrSeal(indexer.getByKey(delta.key), delta.object);
        indexer.remove(delta.key, obj);
        this.#distribute({ kind: 'delete', obj });
        return;
      }
      case 'Bookmark':
        indexer.bookmark(delta.resourceVersion);
        return;
      case 'SyncAll': {
        const due = this.#pendingSyncs.shift() ?? [];
        for (const obj of indexer.list()) {
          const n: Notification<T> = { kind: 'update', old: obj, obj };
          for (const l of due) l.push(n);
        }
        return;
      }
      case 'ReplacedAll':
        this.#replaceAll(delta.objects, delta.resourceVersion, isInInitialList);
        return;
    }
  };

  /** A relist's object as it arrives: the stored one if it is the same version, else this one sealed. */
  readonly prepareListed = (key: string, raw: T): T => this.#reuseOrSeal(this.#indexer.getByKey(key), raw);

  /** The stored object when it is the same version as `raw` (equal, and frozen if freezing is on), else `raw` sealed. */
  #reuseOrSeal(prev: T | undefined, raw: T): T {
    const rv = raw.metadata?.resourceVersion;
    if (prev !== undefined && rv && prev.metadata.resourceVersion === rv) return prev;
    return this.#seal(raw, prev);
  }

  readonly applyFailed = (error: unknown, delta: Delta<T>): void => {
    this.#log.error({ delta: delta.type, error }, 'applying a delta to the store failed');
  };

  /** `objects` is the relist's own map, each value already passed through `prepareListed`; the store takes the map itself. */
  #replaceAll(objects: Map<string, T>, resourceVersion: string, isInInitialList: boolean): void {
    const indexer = this.#indexer;
    const tombstones: DeletedFinalStateUnknown<T>[] = [];
    // The first population (empty store) needs no diff: everything is an add.
    const olds = indexer.size === 0 ? undefined : new Array<T | undefined>(objects.size);
    if (olds) {
      for (const key of indexer.listKeys()) {
        if (!objects.has(key)) tombstones.push(deletedFinalStateUnknown(key, indexer.getByKey(key)!));
      }
      let j = 0;
      for (const key of objects.keys()) olds[j++] = indexer.getByKey(key);
    }
    indexer.replace(objects, resourceVersion);
    for (const t of tombstones) this.#distribute({ kind: 'delete', obj: t });
    let i = 0;
    for (const obj of objects.values()) {
      const old = olds?.[i++];
      if (old === undefined) this.#distribute({ kind: 'add', obj, isInInitialList });
      else if (!isSyncUpdate(old, obj)) this.#distribute({ kind: 'update', old, obj });
    }
    if (tombstones.length > 0) this.#log.debug({ tombstones: tombstones.length }, 'relist found objects deleted while the watch was down');
  }

  #distribute(n: Notification<T>): void {
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.push(n);
  }
}

/** An update that carries no new state (same resourceVersion): a resync or a duplicate. */
function isSyncUpdate<T extends KubeObject>(old: T, obj: T): boolean {
  return old === obj || old.metadata.resourceVersion === obj.metadata.resourceVersion;
}
