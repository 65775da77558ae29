// The face of admission's CEL side, which webhooks, policies and the registry share: the one
// `Attributes` a write is admitted with, the write as a matched rule sees it (`Versioned`), the
// `request` and `authorizer` variables built from them, the policy environments and their compile
// checks, policy evaluation, and webhook match conditions. It imports only libraries, so the
// registry, below admission, can check the expressions of the configuration objects it stores.
export type { AdmissionUser, Attributes, Operation } from './attributes.js';
export { versioned } from './versioned.js';
export type { Matched, Versioned } from './versioned.js';
export { admissionRequest } from './cel-request.js';
export { compileAdmissionExpression, compileMutationExpression } from './expressions.js';
export { list, prepare, run, SKIP } from './evaluation.js';
export type { EvaluationInput, Result } from './evaluation.js';
export { withObjectLiterals } from './object-construction.js';
export { evaluateMatchConditions, matchConditionErrors } from './match-conditions.js';
export type { MatchCondition } from './match-conditions.js';
