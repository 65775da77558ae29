// Admission policies: mutating policies before the webhooks, validating policies after validation
// (and on deletes), with matching and the decisions' effects. The CEL environments, evaluation and
// compile checks are in admission-cel, where the registry entries of policies reach them too.
export { admitWrite, admitByPolicy } from './hook.js';
export type { PolicyAdmission } from './hook.js';
