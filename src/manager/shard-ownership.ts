/**
 * The manager's sharding: runs the `ShardCoordinator` on the manager's shard Leases, points the
 * cache's sharded informers at the shards held, and keeps `converge_manager_owned_shards` in step.
 * Invariant: on every ownership change the cache is told the new set at once; a newly acquired
 * shard's gate opens only once its informers synced, and only then are its objects handed to the
 * controllers — so no reconcile of it ever reads a half-filled cache.
 */
import type { Clock, Logger } from '../meta/index.js';
import type { Client } from '../client/index.js';
import type { InformerCache } from './cache/index.js';
import { createOwnedShardsMetric, type ManagerMetrics } from './metrics/index.js';
import type { ResolvedSharding } from './options.js';
import type { ShardReport } from './explain/index.js';
import { ShardCoordinator, namespaceSharder, shardRanges, type ShardGate } from './sharding/index.js';

export interface ShardOwnershipOptions {
  sharding: ResolvedSharding;
  client: Client;
  gate: ShardGate;
  cache: InformerCache;
  metrics: ManagerMetrics;
  clock: Clock;
  logger: Logger;
}

/** Told when a shard opens (its requests are admitted from now on) and when it is given up or lost. */
export interface ShardListener {
  opened(shard: number): void;
  closed(shard: number): void;
}

export class ShardOwnership {
  readonly #o: ShardOwnershipOptions;
  readonly #shardOf: (namespace: string) => number;
  #coordinator: ShardCoordinator | undefined;
  readonly #listeners = new Set<ShardListener>();
  /** The shards last reported open to listeners. */
  readonly #opened = new Set<number>();

  /** Tells `listener` of every shard opened or closed from now on (and of those open now) until `signal` aborts. */
  watch(listener: ShardListener, signal: AbortSignal): void {
    if (signal.aborted) return;
    this.#listeners.add(listener);
    signal.addEventListener('abort', () => this.#listeners.delete(listener), { once: true });
    for (const shard of this.#opened) listener.opened(shard);
  }

  #tell(what: 'opened' | 'closed', shard: number): void {
    if (what === 'opened') this.#opened.add(shard);
    else if (!this.#opened.delete(shard)) return;
    for (const l of this.#listeners) {
      try {
        l[what](shard);
      } catch (err) {
        this.#o.logger.error({ err, shard }, `shard listener failed on ${what}`);
      }
    }
  }

  constructor(o: ShardOwnershipOptions) {
    this.#o = o;
    this.#shardOf = namespaceSharder(shardRanges(o.sharding.shards));
  }

  /** The shard of `namespace` and who owns it, for `explain`. */
  report(namespace: string): ShardReport {
    const shard = this.#shardOf(namespace);
    const owner = this.holderOf(shard);
    return { shard, ...(owner !== undefined ? { owner } : {}), ownedHere: this.owned().includes(shard) };
  }

  /** The shards owned now, ascending (empty before `run`). */
  owned(): number[] {
    return this.#coordinator?.owned() ?? [];
  }

  /** The identity of the replica holding `shard`'s Lease as last seen, or undefined when none validly does. */
  holderOf(shard: number): string | undefined {
    return this.#coordinator?.holderOf(shard);
  }

  /** Whether the coordinator has reconciled shard ownership at least once (the readiness check). */
  reconciledOnce(): boolean {
    return this.#coordinator?.reconciledOnce() ?? false;
  }

  /** Holds shard Leases until `signal` aborts; resolves once they are freed. */
  run(signal: AbortSignal): Promise<void> {
    const { sharding: sh, cache } = this.#o;
    const setOwned = createOwnedShardsMetric(this.#o.metrics.registry, sh.id);
    const log = this.#o.logger.child({ component: 'sharding' });
    const byNamespace = sh.by === 'namespace';
    this.#coordinator = new ShardCoordinator({
      client: this.#o.client,
      namespace: sh.namespace,
      id: sh.id,
      identity: sh.identity,
      shards: sh.shards,
      leaseDurationMs: sh.leaseDurationMs,
      renewDeadlineMs: sh.renewDeadlineMs,
      retryPeriodMs: sh.retryPeriodMs,
      gate: this.#o.gate,
      clock: this.#o.clock,
      logger: log,
      onOwnedChange: (shards) => {
        setOwned(shards.size);
        for (const shard of [...this.#opened]) if (!shards.has(shard)) this.#tell('closed', shard);
        if (!byNamespace) return;
        cache.setOwnedShards(shards).catch((err: unknown) => {
          if (!signal.aborted) log.error({ err }, 'shard informers did not sync');
        });
      },
      // Sharded by cluster, the cache is whole and each member's cache syncs on its own; a reconcile
      // reading a member's cold cache is retried (CacheNotSyncedError), so a shard opens at once.
      ...(byNamespace
        ? { whenSynced: (shard: number, lost: AbortSignal) => cache.waitForShard(shard, AbortSignal.any([signal, lost])) }
        : {}),
      onOpened: (shard) => {
        if (byNamespace) cache.deliverShard(shard);
        log.info({ shard }, byNamespace ? 'serving shard: its cache synced' : 'serving shard');
        this.#tell('opened', shard);
      },
    });
    return this.#coordinator.run(signal);
  }
}
