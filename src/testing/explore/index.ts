// The fault explorer's face: `explore` (fault schedules over a scenario) and `exploreInputs` (desired
// states drawn from a kind's schema), with the types their callers write.
export { explore } from './explore.js';
export type { ExploreOptions, ExploreResult, ExploreFailure } from './explore.js';
export type { ExploreContext, ExploreSetup, ScenarioStep, Invariant } from './run-schedule.js';
export { FAULT_KINDS } from './schedule.js';
export type { Fault, FaultKind } from './schedule.js';
export { exploreInputs } from './explore-inputs.js';
export type { ExploreInputsOptions, ExploreInputsResult, InputFailure, InputCondition, KindWithCrd } from './explore-inputs.js';
export { specSequence } from './spec-inputs.js';
export type { Spec, SpecSchema } from './spec-inputs.js';
