// Admission policies: mutating policies before the webhooks, validating policies after validation
// (and on deletes), and the decisions' effects. Their CEL (environments, compile checks, evaluation)
// is admission-cel's, below the registry that checks stored policies; matching is the admission
// chain's, shared with the webhooks.
export { admitByPolicy, validateByPolicy } from './hook.js';
export type { PolicyAdmission } from './hook.js';
