// Public face of the manager layer: the Manager, its split client and shared cache, leader election,
// sharding, metrics and health endpoints, the event recorder, explain, and controllerutil's helpers.
// Each sub-folder is one of controller-runtime's packages with its own face; this file re-exports them.
export { createManager } from './create-manager.js';
export { Manager } from './manager.js';
export type { ExplainClusters } from './manager.js';
export type { ManagerOptions, LeaderElectionOptions, ShardingOptions, StalenessOptions } from './options.js';
export { installSignalHandlers } from './signals.js';
export type { SignalHandlers } from './signals.js';
export { ShutdownTimeoutError, WriteFencedError } from './errors.js';
export type { WriteFencedReason } from './errors.js';
export { stripManagedFields, CacheNotSyncedError, InformerForbiddenError, ShardNotOwnedError } from './cache/index.js';
export type { CacheOptions, CacheResourceOptions, CacheListOptions, ManagerClient, CacheReader, StatusWriter } from './cache/index.js';
export { LeaderElectionLostError } from './leaderelection/index.js';
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
export { ping } from './http/index.js';
export type { HealthCheck } from './http/index.js';
export type { EventRecorder, EventType } from './events/index.js';
export type { ConvergeReport, ControllerReport, ConditionReport, ExplainSource, ShardReport } from './explain/index.js';
