// Admission policies: mutating policies before the webhooks, validating policies after validation
// (and on deletes), with matching, CEL evaluation and the decisions' effects; and the compile checks
// the policies' registry entries use.
export { admitWrite, admitByPolicy } from './hook.js';
export type { PolicyAdmission } from './hook.js';
export { compileAdmissionExpression, compileMutationExpression } from '../admission-cel/expressions.js';
export { celRequest, celAuthorizerOf } from '../admission-cel/evaluation.js';
