// The face of admission's CEL side, which webhooks, policies and the registry share: the attributes a
// write is admitted with, the policy environments and their compile checks, evaluation with the
// `request` and `authorizer` variables, and webhook match conditions. It imports only libraries, so
// the registry, below admission, can check the expressions of the configuration objects it stores.
export type { AdmissionAttributes, Operation } from './attributes.js';
export type { AdmissionAttributes as WebhookAdmissionAttributes, AdmissionOperation } from './webhook-attributes.js';
export { compileAdmissionExpression, compileMutationExpression } from './expressions.js';
export { list, prepare, run, SKIP } from './evaluation.js';
export type { EvaluationInput, Result } from './evaluation.js';
export { withObjectLiterals } from './object-construction.js';
export { evaluateMatchConditions, matchConditionErrors } from './match-conditions.js';
export type { MatchCondition } from './match-conditions.js';
