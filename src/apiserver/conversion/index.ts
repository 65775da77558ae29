// CRD conversion through a webhook, as the API server calls it around its handlers.
export { convertThroughWebhook } from './webhook-converter.js';
export type { ConversionDeps } from './webhook-converter.js';
