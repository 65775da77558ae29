// The manager layer's internal face: what the CLI and the webhook layer need beyond the public face. Not
// in package.json's exports: not part of Converge's API.
export type { WebhookServerRunnable } from './manager.js';
export { formatDuration } from './explain/index.js';
