/**
 * One informer over the namespace shards a replica owns, made of one sharded informer per owned
 * shard (each lists and watches with that shard's `shardSelector`). The set of shards changes while
 * it runs: `setShards` starts the members of newly owned shards — every handler and indexer
 * registered so far is added to them, so controllers keep their queue and see the new shard's
 * objects as adds — and stops the members of shards no longer owned (their objects leave the store
 * without delete events: their reconciles are dropped by the shard gate, not by the informer).
 * A change touches only the shards that changed; the others keep their watches. A member added with
 * `deliver: 'when-told'` gets the handlers only at `deliverShard` (the manager's sharding calls it
 * once the shard synced and its gate opened): its objects then reach the controllers as adds of a
 * complete store, never while it fills.
 *
 * The members are informers of a `SharedInformerFactory`, each asked for with a stop signal of its
 * own: releasing a shard aborts it, which stops that member and drops it from the factory, so owning
 * the shard again builds a fresh one. The factory runs them; `run` starts the factory.
 *
 * Invariant: members hold disjoint namespace ranges, so a key is routed to exactly one member and
 * no object is delivered or returned twice.
 */
import { splitKey, type KubeObject, type ResourceDescriptor } from '../../meta/index.js';
import { untilAborted, whenAborted } from '../../meta/internal.js';
import type {
  HandlerRegistration,
  IndexFunc,
  Indexer,
  InformerForOptions,
  ReflectorStatus,
  ResourceEventHandler,
  SharedIndexInformer,
  SharedInformerFactory,
} from '../../cache/index.js';
import { combineReflectorStatuses } from './combined-status.js';

export interface ShardedInformerOptions<T extends KubeObject> {
  /** Builds and runs the members. */
  factory: SharedInformerFactory;
  resource: ResourceDescriptor<T>;
  /** The factory options of one shard's member, its `shardSelector` among them (the stop signal is added here). */
  member: (shard: number) => Omit<InformerForOptions<T>, 'signal' | 'indexers'>;
  shardOf: (namespace: string) => number;
}

interface Member<T extends KubeObject> {
  readonly informer: SharedIndexInformer<T>;
  readonly stop: AbortController;
  readonly regs: Map<Handler<T>, HandlerRegistration>;
  /** Whether the handlers are registered on it (false until `deliverShard` for a deferred member). */
  delivering: boolean;
}

interface Handler<T extends KubeObject> {
  readonly handler: ResourceEventHandler<T>;
  readonly options: { resyncMs?: number; name?: string } | undefined;
}

/** One informer over the namespace shards this replica owns, changing its members as ownership moves. */
export class ShardedInformer<T extends KubeObject> implements SharedIndexInformer<T> {
  readonly #factory: SharedInformerFactory;
  readonly #resource: ResourceDescriptor<T>;
  readonly #member: ShardedInformerOptions<T>['member'];
  readonly #shardOf: (namespace: string) => number;
  readonly #members = new Map<number, Member<T>>();
  readonly #handlers = new Set<Handler<T>>();
  readonly #indexers: Record<string, IndexFunc<T>> = {};
  #signal: AbortSignal | undefined;
  readonly #indexer: Indexer<T>;

  constructor(options: ShardedInformerOptions<T>) {
    this.#factory = options.factory;
    this.#resource = options.resource;
    this.#member = options.member;
    this.#shardOf = options.shardOf;
    const all = (): SharedIndexInformer<T>[] => [...this.#members.values()].map((m) => m.informer);
    this.#indexer = {
      getByKey: (key) =>
        this.#members
          .get(this.#shardOf(splitKey(key).namespace))
          ?.informer.getIndexer()
          .getByKey(key),
      list: () => all().flatMap((i) => i.getIndexer().list()),
      listKeys: () => all().flatMap((i) => i.getIndexer().listKeys()),
      byIndex: (name, value) => all().flatMap((i) => i.getIndexer().byIndex(name, value)),
      indexKeys: (name, value) => all().flatMap((i) => i.getIndexer().indexKeys(name, value)),
      listIndexFuncValues: (name) => [...new Set(all().flatMap((i) => i.getIndexer().listIndexFuncValues(name)))],
      index: (name, obj) => all().flatMap((i) => i.getIndexer().index(name, obj)),
      // Resource versions of different watches are not comparable; report one member's, '' with none.
      lastStoreSyncResourceVersion: () => all()[0]?.getIndexer().lastStoreSyncResourceVersion() ?? '',
      addIndexers: (indexers) => this.addIndexers(indexers),
    };
  }

  /** The shards with a member now. */
  shards(): number[] {
    return [...this.#members.keys()].sort((a, b) => a - b);
  }

  /** Whether the member of `shard` exists and synced. */
  shardSynced(shard: number): boolean {
    return this.#members.get(shard)?.informer.hasSynced() ?? false;
  }

  /** Resolves once the member of `shard` synced (at once without one); rejects if `signal` aborts first. */
  async waitForShard(shard: number, options: { signal?: AbortSignal | undefined } = {}): Promise<void> {
    await this.#members.get(shard)?.informer.waitForSync(options);
  }

  /** Registers every handler on the member of `shard`, if not yet: its store reaches them as adds. */
  deliverShard(shard: number): void {
    const m = this.#members.get(shard);
    if (!m || m.delivering) return;
    m.delivering = true;
    for (const h of this.#handlers) m.regs.set(h, m.informer.addEventHandler(h.handler, h.options));
  }

  /**
   * Makes the members exactly `owned`: adds (and, if running, starts) the missing ones, stops the
   * others. Added members get the handlers at once, or with `deliver: 'when-told'` only at
   * `deliverShard`. Resolves once the added members synced, or rejects if `signal` aborts first.
   */
  async setShards(
    owned: ReadonlySet<number>,
    options: { signal?: AbortSignal | undefined; deliver?: 'at-once' | 'when-told' } = {},
  ): Promise<void> {
    for (const [shard, m] of this.#members) {
      if (owned.has(shard)) continue;
      this.#members.delete(shard);
      for (const reg of m.regs.values()) reg.remove();
      m.stop.abort(new Error(`shard ${shard} released`));
    }
    const added: SharedIndexInformer<T>[] = [];
    for (const shard of owned) {
      if (this.#members.has(shard)) continue;
      const stop = new AbortController();
      // A signal of its own makes this a new factory informer, never a released shard's stopped one.
      const informer = this.#factory.informerFor(this.#resource, {
        ...this.#member(shard),
        signal: stop.signal,
        indexers: { ...this.#indexers },
      });
      const m: Member<T> = { informer, stop, regs: new Map(), delivering: false };
      this.#members.set(shard, m);
      if ((options.deliver ?? 'at-once') === 'at-once') this.deliverShard(shard);
      added.push(informer);
    }
    if (this.#signal && added.length > 0) this.#factory.start(this.#signal);
    await untilAborted(Promise.all(added.map((i) => i.waitForSync())), options.signal);
  }

  addEventHandler(handler: ResourceEventHandler<T>, options?: { resyncMs?: number; name?: string }): HandlerRegistration {
    const h: Handler<T> = { handler, options };
    this.#handlers.add(h);
    for (const m of this.#members.values()) if (m.delivering) m.regs.set(h, m.informer.addEventHandler(handler, options));
    const regs = (): HandlerRegistration[] => [...this.#members.values()].flatMap((m) => m.regs.get(h) ?? []);
    return {
      hasSynced: () => regs().every((r) => r.hasSynced()),
      remove: () => {
        this.#handlers.delete(h);
        for (const m of this.#members.values()) {
          m.regs.get(h)?.remove();
          m.regs.delete(h);
        }
      },
      pending: () => regs().reduce((n, r) => n + r.pending(), 0),
      errors: () => regs().reduce((n, r) => n + r.errors(), 0),
    };
  }

  getIndexer(): Indexer<T> {
    return this.#indexer;
  }

  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    for (const m of this.#members.values()) m.informer.addIndexers(indexers);
    Object.assign(this.#indexers, indexers);
  }

  hasSynced(): boolean {
    return [...this.#members.values()].every((m) => m.informer.hasSynced());
  }

  async waitForSync(options?: { signal?: AbortSignal | undefined }): Promise<void> {
    // One abort listener for all members: a signal shared by a dozen shards' waits would pass Node's
    // limit of ten listeners and warn (MaxListenersExceededWarning).
    await untilAborted(Promise.all([...this.#members.values()].map((m) => m.informer.waitForSync())), options?.signal);
  }

  lastSyncResourceVersion(): string {
    return [...this.#members.values()][0]?.informer.lastSyncResourceVersion() ?? '';
  }

  status(): ReflectorStatus {
    const [head, ...tail] = [...this.#members.values()].map((m) => m.informer.status());
    if (!head) {
      return {
        phase: this.#signal ? 'watching' : 'idle',
        lastSyncResourceVersion: '',
        reconnects: 0,
        relists: 0,
        errors: { gone: 0, tooManyRequests: 0, network: 0, other: 0 },
      };
    }
    return combineReflectorStatuses([head, ...tail]);
  }

  /**
   * Runs the members, present and future, until `signal` aborts, by starting the factory (and with
   * it any other informer of the factory not started yet); resolves when the factory's informers stopped.
   */
  async run(signal: AbortSignal): Promise<void> {
    this.#signal = signal;
    this.#factory.start(signal);
    await whenAborted(signal);
    await this.#factory.stopped();
  }
}
