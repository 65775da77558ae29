// Public face of the manager layer: the Manager, its split client and shared cache, leader election,
// metrics and health endpoints, the event recorder, and controllerutil's helpers.
export { createManager, Manager } from './manager.js';
export { formatDuration } from './explain.js';
export type { ConvergeReport, ControllerReport, ConditionReport, ExplainSource } from './explain.js';
export { EXPLAIN_PATH_PREFIX, parseExplainPath } from './explain-endpoint.js';
export { resolveManagerOptions, MANAGER_DEFAULTS } from './options.js';
export type {
  ManagerOptions, ResolvedManagerOptions, LeaderElectionOptions, ResolvedLeaderElection, ShardingOptions, ResolvedSharding,
} from './options.js';
export { shardRanges, namespaceShardSelector, fnv1a64, shardOfHash, namespaceSharder, HASH_SPACE_END } from './shard-ranges.js';
export type { HashRange } from './shard-ranges.js';
export { ShardGate } from './shard-gate.js';
export { ShardedInformer } from './sharded-informer.js';
export { ShardCoordinator, memberLeaseName, shardLeaseName } from './shard-coordinator.js';
export type { ShardCoordinatorOptions } from './shard-coordinator.js';
export { installSignalHandlers } from './signals.js';
export type { SignalHandlers } from './signals.js';
export type { ManagerClient, CacheReader, StatusWriter } from './split-client.js';
export { stripManagedFields, DEFAULT_SYNC_PERIOD_MS } from './informer-cache.js';
export type { CacheOptions, CacheResourceOptions, CacheListOptions } from './informer-cache.js';
export { AlreadyOwnedError, CacheNotSyncedError, LeaderElectionLostError, ShutdownTimeoutError } from './errors.js';
export { createManagerMetrics } from './metrics.js';
export type { ManagerMetrics } from './metrics.js';
export { createControllerMetrics, RECONCILE_TIME_BUCKETS } from './controller-metrics.js';
export { createWorkqueueMetrics, WORKQUEUE_DURATION_BUCKETS } from './workqueue-metrics.js';
export { HealthChecks, ping } from './health.js';
export type { HealthCheck, HealthResponse } from './health.js';
export { LeaderElector, validateLeaderElectionTimings, leaseStep, observe } from './leader-election.js';
export type {
  LeaderElectionRecord, LockSnapshot, LeaseLock, ElectorState, LeaderElectorOptions, Observation, LeaseStep,
} from './leader-election.js';
export { leaseLock, snapshotOf } from './lease-lock.js';
export { EventBroadcaster } from './event-recorder.js';
export type { EventRecorder, EventType } from './event-recorder.js';
export { setControllerReference, setOwnerReference, removeOwnerReference, removeControllerReference } from './owner-references.js';
export type { OwnerReferenceOptions, ControllerReferenceOptions } from './owner-references.js';
export { createOrUpdate, createOrPatch } from './create-or-update.js';
export type { OperationResult, MutateFn, CreateOrUpdateOutcome } from './create-or-update.js';
export { addFinalizer, removeFinalizer, containsFinalizer, Finalizers } from './finalizers.js';
export type { Finalizer, FinalizerResult, FinalizeOutcome } from './finalizers.js';
