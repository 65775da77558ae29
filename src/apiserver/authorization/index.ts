// The face of authorization: RBAC over the stored roles and bindings, the bootstrap policy a new
// cluster starts with, the per-request check of what a request's attributes ask, and the recorder of
// requests and decisions that tests read. Who is asking, and what, are ground vocabulary.
export { bootstrapClusterRoleBindings, bootstrapClusterRoles, grantedToAuthenticatedUsers } from './bootstrap-policy.js';
export { CLUSTER_ROLES, RbacAuthorizer } from './rbac-authorizer.js';
export type { Decision } from './rbac-authorizer.js';
export { RequestAuthorization } from './request-authorization.js';
export { RequestRecorder } from './request-recorder.js';
export type { RecordedRequest } from './request-recorder.js';
export type { PolicyRule } from './policy-rule.js';
