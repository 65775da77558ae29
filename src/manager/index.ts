// Public face of the manager layer: the Manager, its split client and shared cache, leader election,
// sharding, metrics and health endpoints, the event recorder, explain, and controllerutil's helpers.
// Each sub-folder is one of controller-runtime's packages with its own face; this file re-exports them.
export { createManager } from './create-manager.js';
export { Manager } from './manager.js';
export type { WebhookServerRunnable } from './manager.js';
export { resolveManagerOptions, MANAGER_DEFAULTS } from './options.js';
export type {
  ManagerOptions,
  ResolvedManagerOptions,
  LeaderElectionOptions,
  ResolvedLeaderElection,
  ShardingOptions,
  ResolvedSharding,
} from './options.js';
export { installSignalHandlers } from './signals.js';
export type { SignalHandlers } from './signals.js';
export { ShutdownTimeoutError } from './errors.js';
export {
  stripManagedFields,
  DEFAULT_SYNC_PERIOD_MS,
  CacheNotSyncedError,
  InformerForbiddenError,
  ShardNotOwnedError,
  ShardedInformer,
} from './cache/index.js';
export type { CacheOptions, CacheResourceOptions, CacheListOptions, ManagerClient, CacheReader, StatusWriter } from './cache/index.js';
export { shardRanges, namespaceShardSelector, ShardGate, ShardCoordinator } from './sharding/index.js';
export type { HashRange, ShardCoordinatorOptions } from './sharding/index.js';
export { LeaderElector, leaseLock, LeaderElectionLostError } from './leaderelection/index.js';
export type { LeaderElectionRecord, LockSnapshot, LeaseLock, ElectorState, LeaderElectorOptions } from './leaderelection/index.js';
export {
  setControllerReference,
  setOwnerReference,
  removeOwnerReference,
  removeControllerReference,
  createOrUpdate,
  createOrPatch,
  addFinalizer,
  removeFinalizer,
  containsFinalizer,
  Finalizers,
  AlreadyOwnedError,
} from './controllerutil/index.js';
export type {
  OwnerReferenceOptions,
  ControllerReferenceOptions,
  OperationResult,
  MutateFn,
  CreateOrUpdateOutcome,
  Finalizer,
  FinalizerResult,
  FinalizeOutcome,
} from './controllerutil/index.js';
export { HealthChecks, ping } from './http/index.js';
export type { HealthCheck, HealthResponse } from './http/index.js';
export { createManagerMetrics } from './metrics/index.js';
export type { ManagerMetrics } from './metrics/index.js';
export { EventBroadcaster } from './events/index.js';
export type { EventRecorder, EventType } from './events/index.js';
export { formatDuration } from './explain/index.js';
export type { ConvergeReport, ControllerReport, ConditionReport, ExplainSource, ShardReport } from './explain/index.js';
