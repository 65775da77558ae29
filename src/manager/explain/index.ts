// `explain`: why an object is not converged, from the manager's cache and its controllers' state.
export { explainObject, formatDuration } from './explain.js';
export { ClusterNotEngagedError } from './errors.js';
export type { ConvergeReport, ControllerReport, ConditionReport, ExplainSource } from './explain.js';
export type { ShardReport } from './shard-ownership.js';
