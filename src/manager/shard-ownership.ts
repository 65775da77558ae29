/**
 * The manager's sharding: runs the `ShardCoordinator` on the manager's shard Leases, points the
 * cache's sharded informers at the shards held, and keeps `converge_manager_owned_shards` in step.
 * Invariant: on every ownership change the cache is told the new set at once (its new informers then
 * sync in the background; a failure to sync is logged unless the manager is stopping).
 */
import type { Clock, Logger } from '../meta/index.js';
import type { Client } from '../client/index.js';
import type { InformerCache } from './cache/index.js';
import { createOwnedShardsMetric, type ManagerMetrics } from './metrics/index.js';
import type { ResolvedSharding } from './options.js';
import { ShardCoordinator, type ShardGate } from './sharding/index.js';

export interface ShardOwnershipOptions {
  sharding: ResolvedSharding;
  client: Client;
  gate: ShardGate;
  cache: InformerCache;
  metrics: ManagerMetrics;
  clock: Clock;
  logger: Logger;
}

export class ShardOwnership {
  readonly #o: ShardOwnershipOptions;
  #coordinator: ShardCoordinator | undefined;

  constructor(o: ShardOwnershipOptions) {
    this.#o = o;
  }

  /** The shards owned now, ascending (empty before `run`). */
  owned(): number[] {
    return this.#coordinator?.owned() ?? [];
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
        cache.setOwnedShards(shards).catch((err: unknown) => {
          if (!signal.aborted) log.error({ err }, 'shard informers did not sync');
        });
      },
    });
    return this.#coordinator.run(signal);
  }
}
