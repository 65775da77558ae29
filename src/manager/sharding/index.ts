// Namespace sharding across replicas: hash ranges of the shards, the gate that drops requests of
// shards not owned, and the coordinator that holds shard Leases.
export { shardRanges, namespaceShardSelector, shardOfHash, namespaceSharder, HASH_SPACE_END } from './shard-ranges.js';
export type { HashRange } from './shard-ranges.js';
export { ShardGate } from './shard-gate.js';
export { assignedShards } from './shard-assignment.js';
export { ShardCoordinator, memberLeaseName, shardLeaseName } from './shard-coordinator.js';
export type { ShardCoordinatorOptions } from './shard-coordinator.js';
