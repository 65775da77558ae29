/**
 * Store / Indexer: the informer's local copy of the cluster, keyed by `namespace/name`, with named
 * secondary indexes (client-go's `threadSafeMap` + `storeIndex`).
 *
 *   items    key → object (deep-frozen by the FIFO before it gets here)
 *   indices  index name → indexed value → set of keys
 *
 * Invariants: `indices` always equals what the index functions give for `items` (a value whose key
 * set empties is dropped, so memory does not grow with churn); `replace` builds the new items and
 * indexes aside and swaps them in one step, so no reader ever sees a half-replaced store; an index
 * function that throws is reported and the object is stored without values for that index (the store
 * still equals the server). Only the informer writes; everyone else gets the read-only `Indexer` view.
 */
import type { KubeObject } from '../meta/index.js';
import { IndexerError } from './errors.js';
import type { IndexFunc, Indexer } from './types.js';

/** The built-in index every informer has: objects by namespace (`''` for cluster-scoped ones). */
export const NAMESPACE_INDEX = 'namespace';

/** The index function behind `NAMESPACE_INDEX`: an object's namespace, `''` for cluster-scoped objects. */
export const metaNamespaceIndexFunc: IndexFunc = (obj) => [obj.metadata.namespace ?? ''];

type Index = Map<string, Set<string>>;

/** The secondary indexes of an `IndexedStore`, and where an index function that throws is reported. */
export interface IndexedStoreOptions<T extends KubeObject> {
  indexers?: Record<string, IndexFunc<T>> | undefined;
  /** Called when an index function throws; the object is indexed without values for that index. */
  onIndexError: (indexName: string, key: string, error: unknown) => void;
}

const NO_VALUES: readonly string[] = Object.freeze([]);

export class IndexedStore<T extends KubeObject = KubeObject> implements Indexer<T> {
  #items = new Map<string, T>();
  readonly #indexers = new Map<string, IndexFunc<T>>();
  #indices = new Map<string, Index>();
  /** The index functions other than the namespace one, as an array: the write path walks it per event. */
  #custom: { name: string; fn: IndexFunc<T> }[] = [];
  #rv = '';
  readonly #onIndexError: (indexName: string, key: string, error: unknown) => void;

  constructor(o: IndexedStoreOptions<T>) {
    this.#onIndexError = o.onIndexError;
    this.addIndexers({ [NAMESPACE_INDEX]: metaNamespaceIndexFunc } as Record<string, IndexFunc<T>>);
    // The built-in name is taken first, so a caller's `namespace` index is a conflict, never a silent override.
    if (o.indexers) this.addIndexers(o.indexers);
  }

  // ---- reads -------------------------------------------------------------------------------------

  get size(): number {
    return this.#items.size;
  }

  getByKey(key: string): T | undefined {
    return this.#items.get(key);
  }

  list(): T[] {
    return Array.from(this.#items.values());
  }

  listKeys(): string[] {
    return Array.from(this.#items.keys());
  }

  byIndex(indexName: string, indexedValue: string): T[] {
    const keys = this.#index(indexName).get(indexedValue);
    if (!keys) return [];
    const out = new Array<T>(keys.size);
    let i = 0;
    for (const k of keys) out[i++] = this.#items.get(k)!;
    return out;
  }

  indexKeys(indexName: string, indexedValue: string): string[] {
    const keys = this.#index(indexName).get(indexedValue);
    return keys ? Array.from(keys).sort() : [];
  }

  listIndexFuncValues(indexName: string): string[] {
    return Array.from(this.#index(indexName).keys());
  }

  index(indexName: string, obj: T): T[] {
    const index = this.#index(indexName);
    const values = this.#indexers.get(indexName)!(obj);
    if (values.length === 1) return this.byIndex(indexName, values[0]!);
    const keys = new Set<string>();
    for (const v of values) for (const k of index.get(v) ?? []) keys.add(k);
    return Array.from(keys, (k) => this.#items.get(k)!);
  }

  lastStoreSyncResourceVersion(): string {
    return this.#rv;
  }

  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    const names = Object.keys(indexers);
    const taken = names.filter((n) => this.#indexers.has(n));
    if (taken.length > 0) throw new IndexerError(`indexer conflict: ${taken.join(', ')}`);
    for (const name of names) {
      const fn = indexers[name]!;
      const index: Index = new Map();
      for (const [key, obj] of this.#items) this.#addToIndex(index, key, this.#values(name, fn, key, obj));
      this.#indexers.set(name, fn);
      this.#indices.set(name, index);
      if (fn !== metaNamespaceIndexFunc) this.#custom = [...this.#custom, { name, fn }];
    }
  }

  // ---- writes (the informer only) ----------------------------------------------------------------

  /** Adds or replaces the object under `key`; returns the previous one. */
  upsert(key: string, obj: T): T | undefined {
    const old = this.#items.get(key);
    this.#items.set(key, obj);
    // The namespace is part of the key, so only a new key touches the namespace index.
    if (old === undefined) this.#addToIndex(this.#indices.get(NAMESPACE_INDEX)!, key, [obj.metadata.namespace ?? '']);
    const custom = this.#custom;
    for (let i = 0; i < custom.length; i++) {
      const { name, fn } = custom[i]!;
      const index = this.#indices.get(name)!;
      const next = this.#values(name, fn, key, obj);
      if (old === undefined) {
        this.#addToIndex(index, key, next);
        continue;
      }
      const prev = this.#values(name, fn, key, old);
      // The common case (one unchanged value, e.g. the namespace) touches nothing.
      if (prev.length === 1 && next.length === 1 && prev[0] === next[0]) continue;
      this.#removeFromIndex(index, key, prev);
      this.#addToIndex(index, key, next);
    }
    const rv = obj.metadata.resourceVersion;
    if (rv) this.#rv = rv;
    return old;
  }

  /** Removes `key`; `obj` (the deleted state, possibly newer than ours) advances the store's RV. Returns the removed object. */
  remove(key: string, obj?: T): T | undefined {
    const old = this.#items.get(key);
    if (old !== undefined) {
      this.#items.delete(key);
      for (const [name, fn] of this.#indexers) this.#removeFromIndex(this.#indices.get(name)!, key, this.#values(name, fn, key, old));
    }
    const rv = obj?.metadata.resourceVersion;
    if (rv) this.#rv = rv;
    return old;
  }

  /** Swaps in a whole new content at `resourceVersion`, rebuilding every index aside first. */
  replace(items: Map<string, T>, resourceVersion: string): void {
    const indices = new Map<string, Index>();
    const byNamespace: Index = new Map();
    for (const [key, obj] of items) {
      const ns = obj.metadata.namespace ?? '';
      let set = byNamespace.get(ns);
      if (!set) byNamespace.set(ns, (set = new Set()));
      set.add(key);
    }
    indices.set(NAMESPACE_INDEX, byNamespace);
    for (const { name, fn } of this.#custom) {
      const index: Index = new Map();
      for (const [key, obj] of items) this.#addToIndex(index, key, this.#values(name, fn, key, obj));
      indices.set(name, index);
    }
    this.#items = items;
    this.#indices = indices;
    this.#rv = resourceVersion;
  }

  /** Records that the server has sent everything up to `resourceVersion` (a watch bookmark). */
  bookmark(resourceVersion: string): void {
    this.#rv = resourceVersion;
  }

  // ---- internals ---------------------------------------------------------------------------------

  #index(name: string): Index {
    const index = this.#indices.get(name);
    if (!index) throw new IndexerError(`Index with name ${name} does not exist`);
    return index;
  }

  #values(name: string, fn: IndexFunc<T>, key: string, obj: T): readonly string[] {
    try {
      return fn(obj);
    } catch (error) {
      this.#onIndexError(name, key, error);
      return NO_VALUES;
    }
  }

  #addToIndex(index: Index, key: string, values: readonly string[]): void {
    for (const v of values) {
      let set = index.get(v);
      if (!set) index.set(v, (set = new Set()));
      set.add(key);
    }
  }

  #removeFromIndex(index: Index, key: string, values: readonly string[]): void {
    for (const v of values) {
      const set = index.get(v);
      if (!set) continue;
      set.delete(key);
      if (set.size === 0) index.delete(v);
    }
  }
}
