// Admission as the API server runs it, one path for policies and webhooks: the request's attributes,
// built once; the one matcher both use; mutating policies, mutating webhooks, the write's own
// validation, validating policies, validating webhooks. The write handlers call `admitWrite`, the
// write pipeline `validateWrite`. The attributes' type and the CEL they feed live one floor down in
// admission-cel, where the registry compiles stored policies' expressions.
export { admitWrite, afterWrite, serviceResolver, validateWrite } from './write-admission.js';
export type { Admitted, RequestAdmission } from './write-admission.js';
export type { Attributes, Operation } from '../admission-cel/index.js';
export type { WriteRequest } from './attributes-of.js';
export { matches, matchContextOf, ruleMatches } from './matching.js';
export type { MatchContext, MatchCriteria, Rule } from './matching.js';
export type { Matched } from '../admission-cel/index.js';
export type { AdmissionWebhook, WebhookConfiguration, AdmissionDeps } from './webhook-admission.js';
export type { ServiceResolver, WebhookClientConfig } from '../webhook-call.js';
export { enforceOwnerReferencePermissions } from './owner-references-permission.js';
