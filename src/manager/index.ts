// Public face of the manager layer: the Manager, its split client and cache, leader election,
// metrics and health endpoints, the event recorder, and controllerutil's helpers.
export { createManagerMetrics } from './metrics.js';
export type { ManagerMetrics } from './metrics.js';
export { createControllerMetrics, RECONCILE_TIME_BUCKETS } from './controller-metrics.js';
export { createWorkqueueMetrics, WORKQUEUE_DURATION_BUCKETS } from './workqueue-metrics.js';
export { HealthChecks, ping } from './health.js';
export type { HealthCheck, HealthResponse } from './health.js';
export { LeaderElector, validateLeaderElectionTimings } from './leader-election.js';
export type { LeaderElectionRecord, LockSnapshot, LeaseLock, ElectorState, LeaderElectorOptions } from './leader-election.js';
export { leaseLock } from './lease-lock.js';
