// Admission policies: mutating policies before the webhooks, validating policies after validation
// (and on deletes), with CEL evaluation and the decisions' effects; and the compile checks the
// policies' registry entries use. Matching is the admission chain's, shared with the webhooks.
export { admitByPolicy, validateByPolicy } from './hook.js';
export type { PolicyAdmission } from './hook.js';
export { compileAdmissionExpression, compileMutationExpression } from './expressions.js';
