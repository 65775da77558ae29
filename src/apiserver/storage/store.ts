/**
 * The storage: every object of every type in memory, one write sequencer assigning a global strictly
 * increasing resourceVersion (the etcd revision), and a bounded event history used to replay watches,
 * to rebuild the exact state at an older revision (list snapshots for `Exact` reads and continue
 * tokens) and to decide 410s. Writes are synchronous, so a handler's read-check-commit sequence is
 * atomic by construction.
 *
 * Invariants: `metadata.resourceVersion` of a stored object is the revision of its last write; every
 * write consumes exactly one revision and produces exactly one event, published to subscribers in
 * revision order; stored objects are never mutated (callers hand over fresh objects); history holds
 * every event with revision > `compactedRv`, so any state at revision >= `compactedRv` can be rebuilt.
 */
import type { KubeObject } from '../../meta/index.js';

export type StoredEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoredEvent {
  readonly type: StoredEventType;
  readonly rv: number;
  /** Storage id of the resource (`group/plural`). */
  readonly resource: string;
  readonly key: string;
  /** New state; for DELETED the last state stamped with the deletion's revision. */
  readonly object: KubeObject;
  /** State before the write (MODIFIED and DELETED). */
  readonly prev?: KubeObject;
  /** Serialisations of this event, shared by every watcher that renders it the same way. */
  readonly lines: Map<string, string>;
}

export type StoreListener = (e: StoredEvent) => void;

export interface StoreOptions {
  /** Number of events kept for watch replay and snapshots (default 10 000). */
  historySize?: number;
}

export class Store {
  #rv = 1;
  #compactedRv = 1;
  readonly #tables = new Map<string, Map<string, KubeObject>>();
  readonly #history: (StoredEvent | undefined)[];
  #head = 0; // index of the oldest event
  #count = 0;
  readonly #listeners = new Set<StoreListener>();

  constructor({ historySize = 10_000 }: StoreOptions = {}) {
    this.#history = new Array<StoredEvent | undefined>(Math.max(1, historySize));
  }

  /** The revision of the last write. */
  get currentRv(): number {
    return this.#rv;
  }

  /** States at revisions below this can no longer be rebuilt (watches from older revisions get 410). */
  get compactedRv(): number {
    return this.#compactedRv;
  }

  subscribe(listener: StoreListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #table(resource: string): Map<string, KubeObject> {
    let t = this.#tables.get(resource);
    if (!t) {
      t = new Map();
      this.#tables.set(resource, t);
    }
    return t;
  }

  get(resource: string, key: string): KubeObject | undefined {
    return this.#tables.get(resource)?.get(key);
  }

  /** Current objects of a resource (live view: do not hold across writes). */
  current(resource: string): ReadonlyMap<string, KubeObject> {
    return this.#table(resource);
  }

  create(resource: string, key: string, obj: KubeObject): KubeObject {
    return this.#commit('ADDED', resource, key, obj, undefined);
  }

  update(resource: string, key: string, obj: KubeObject): KubeObject {
    const prev = this.get(resource, key);
    if (!prev) throw new Error(`store.update(${resource}, ${key}) without a stored object: the handler must check first`);
    return this.#commit('MODIFIED', resource, key, obj, prev);
  }

  /** Removes an object; `last` is its final state (default: the stored one). Returns it stamped with the deletion revision. */
  delete(resource: string, key: string, last?: KubeObject): KubeObject {
    const prev = this.get(resource, key);
    if (!prev) throw new Error(`store.delete(${resource}, ${key}) without a stored object: the handler must check first`);
    return this.#commit('DELETED', resource, key, { ...(last ?? prev), metadata: { ...(last ?? prev).metadata } }, prev);
  }

  #commit(type: StoredEventType, resource: string, key: string, obj: KubeObject, prev: KubeObject | undefined): KubeObject {
    const rv = ++this.#rv;
    (obj.metadata as { resourceVersion?: string }).resourceVersion = String(rv);
    const table = this.#table(resource);
    if (type === 'DELETED') table.delete(key);
    else table.set(key, obj);
    const event: StoredEvent = { type, rv, resource, key, object: obj, ...(prev ? { prev } : {}), lines: new Map() };
    this.#append(event);
    for (const l of this.#listeners) l(event);
    return obj;
  }

  #append(e: StoredEvent): void {
    const size = this.#history.length;
    if (this.#count === size) {
      const dropped = this.#history[this.#head]!;
      this.#compactedRv = dropped.rv;
      this.#head = (this.#head + 1) % size;
      this.#count--;
    }
    this.#history[(this.#head + this.#count) % size] = e;
    this.#count++;
  }

  /** Events of `resource` with revision > `rv`, oldest first; undefined when history no longer reaches back that far. */
  eventsSince(resource: string, rv: number): StoredEvent[] | undefined {
    if (rv < this.#compactedRv) return undefined;
    const out: StoredEvent[] = [];
    const size = this.#history.length;
    for (let i = this.#count - 1; i >= 0; i--) {
      const e = this.#history[(this.#head + i) % size]!;
      if (e.rv <= rv) break;
      if (e.resource === resource) out.push(e);
    }
    return out.reverse();
  }

  /**
   * The objects of `resource` exactly as they were at revision `rv`, or undefined when that state was
   * compacted away. Rebuilt by undoing newer events on a copy of the current table.
   */
  snapshot(resource: string, rv: number): Map<string, KubeObject> | undefined {
    if (rv >= this.#rv) return new Map(this.#table(resource));
    const newer = this.eventsSince(resource, rv);
    if (!newer) return undefined;
    const state = new Map(this.#table(resource));
    for (let i = newer.length - 1; i >= 0; i--) {
      const e = newer[i]!;
      if (e.type === 'ADDED') state.delete(e.key);
      else state.set(e.key, e.prev!);
    }
    return state;
  }

  /** Test hook: forgets all history, so reads and watches from older revisions get 410 Expired. */
  compact(): void {
    this.#history.fill(undefined);
    this.#head = 0;
    this.#count = 0;
    this.#compactedRv = this.#rv;
  }
}
