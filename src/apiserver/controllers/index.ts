// The lifecycle controllers a cluster runs beside its API server, run here in-process on the
// storage's own events: CRDs become served kinds and are cleaned up, namespaces are finalized, and
// (when enabled) owner references are garbage-collected. Each writes only through the normal paths.
export { CrdController } from './crd-controller.js';
export { GarbageCollector } from './garbage-collector.js';
export { NamespaceLifecycle } from './namespace-lifecycle.js';
export { ClusterRoleAggregation } from './cluster-role-aggregation.js';
