// ValidatingAdmissionPolicy admission: matching, CEL evaluation and the decisions' effects, run by
// the write pipeline after validation; and the compile check the policy's registry entry uses.
export { admitWithPolicies } from './admit.js';
export { admitWrite } from './hook.js';
export type { AdmissionAuditEvent, PolicyAdmission } from './admit.js';
export type { AdmissionAttributes, Operation } from './attributes.js';
export { compileAdmissionExpression } from './expressions.js';
