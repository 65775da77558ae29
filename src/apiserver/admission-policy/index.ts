// ValidatingAdmissionPolicy admission: matching, CEL evaluation and the decisions' effects, run by
// the write pipeline after validation; and the compile check the policy's registry entry uses.
export { admitWrite } from './hook.js';
export { compileAdmissionExpression } from './expressions.js';
