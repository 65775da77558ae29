// The face of explore: seeded fault schedules run against an in-process API server, with the
// schedule, scenario and invariant types an operator's exploration test writes against.
export { explore } from './explore.js';
export type { ExploreOptions, ExploreResult, ExploreFailure } from './explore.js';
export type { ExploreContext, ExploreSetup, ScenarioStep, Invariant } from './run-schedule.js';
export type { Fault, FaultKind } from './schedule.js';
