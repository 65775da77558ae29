// The manager's Prometheus metric families (controller-runtime's pkg/metrics): its registry, the
// controller and workqueue families, and the leader-election and REST-client metrics.
export { createManagerMetrics } from './metrics.js';
export type { ManagerMetrics } from './metrics.js';
export { createControllerMetrics, RECONCILE_TIME_BUCKETS } from './controller-metrics.js';
export { createWorkqueueMetrics, WORKQUEUE_DURATION_BUCKETS } from './workqueue-metrics.js';
export { createOwnedShardsMetric } from './owned-shards-metric.js';
export { createStalenessMetric } from './staleness-metric.js';
