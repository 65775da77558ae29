// Admission webhooks as the API server calls them: which webhooks match a write, the calls, and the
// mutating then validating phases. The write handlers call `admitMutating` and `admitValidating`.
export { admitMutating, admitValidating } from './webhook-admission.js';
export type { AdmissionWebhook, WebhookConfiguration, AdmissionDeps } from './webhook-admission.js';
export type { WebhookAdmissionAttributes as AdmissionAttributes, AdmissionOperation } from '../admission-cel/index.js';
export { webhookMatches, ruleMatches } from './matching.js';
export type { WebhookRule, MatchableWebhook } from './matching.js';
export type { ServiceResolver, WebhookClientConfig } from '../webhook-call.js';
export { admitWrite, afterWrite, serviceResolver } from './write-admission.js';
export { enforceOwnerReferencePermissions } from './owner-references-permission.js';
