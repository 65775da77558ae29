// Public face of the webhook layer: admission webhooks (defaulting, validating) and conversion
// webhooks served over HTTPS by a manager, their builder, test helpers for conversions, and the
// manifests that deploy them.
export { webhookManagedBy, WebhookBuilder } from './builder.js';
export { webhookServerFor } from './manager-server.js';
export { WebhookServer } from './webhook-server.js';
export type { WebhookServerOptions, AdmissionRegistration } from './webhook-server.js';
export { defaultingHandler, validatingHandler } from './admission-handler.js';
export type { AdmissionContext, Defaulter, Validator, ValidatorOutcome, AdmissionHandler } from './admission-handler.js';
export { deny } from './denial.js';
export type { Denial, DenialCause, ValidationResult } from './denial.js';
export type { AdmissionReview, AdmissionRequest, AdmissionResponse, AdmissionOperation } from './admission-review.js';
export { defineConversion, spoke, convertObject, roundTrip, isLossless } from './conversion.js';
export type { Conversion, Spoke } from './conversion.js';
export { serveConversion } from './conversion-review.js';
export type { ConversionReview, ConversionRequest, ConversionResponse } from './conversion-review.js';
export { webhookConfigurations, conversionWebhookBlock } from './manifests.js';
export type { WebhookTarget, WebhookManifestOptions } from './manifests.js';
