/**
 * `converge_manager_owned_shards{name}`: how many namespace shards this replica owns. Only a sharded
 * manager registers it, when its sharding starts, so an unsharded manager's `/metrics` never shows
 * it. Invariant: the series exists from registration on, at 0 until the first shard is held.
 */
import { Gauge, type Registry } from 'prom-client';

/** Registers the gauge on `registry` for sharding `id`; returns the setter of its one series. */
export function createOwnedShardsMetric(registry: Registry, id: string): (count: number) => void {
  const owned = new Gauge({
    name: 'converge_manager_owned_shards',
    help: "Number of namespace shards this replica owns. 'name' is the sharding id.",
    labelNames: ['name'] as const,
    registers: [registry],
  });
  owned.set({ name: id }, 0);
  return (count) => owned.set({ name: id }, count);
}
