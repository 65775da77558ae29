/**
 * The WebApp's admission webhooks, in both versions: a defaulter (one replica unless said otherwise) and a validator
 * (an image without a tag or digest is refused, so a production rollout never follows `latest`).
 * Which namespaces count as production is the webhook configuration's business, not the code's:
 * the validating webhook is registered for namespaces labelled `environment=production`, so the
 * rule is visible, and changeable, in the manifests.
 */
import type { Manager } from 'kube-converge/manager';
import { deny, webhookConfigurations, webhookServerFor, webhookManagedBy, type WebhookTarget } from 'kube-converge/webhook';
import { WebApp, WebAppV1alpha1 } from './types.js';
import { setupWebAppConversion } from './conversion.js';

/** The namespace label that makes the validating webhook apply. */
export const PRODUCTION_SELECTOR = { matchLabels: { environment: 'production' } };

/** True when `image` names a tag (`nginx:1.27`, `registry:5000/app:v2`) or a digest (`app@sha256:…`). */
export function isPinnedImage(image: string): boolean {
  if (image.includes('@')) return true;
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  return lastSegment.includes(':');
}

/**
 * Registers the WebApp's webhooks on the manager's webhook server: defaulting and validating for
 * each served version (a webhook is called for the versions its rules name), and the conversion
 * between them.
 */
export function setupWebAppWebhooks(mgr: Manager): void {
  webhookManagedBy(mgr)
    .for(WebApp)
    .defaulter((app) => {
      app.spec.replicas ??= 1;
    })
    .validator({
      create: (app) => checkImage(app.spec.image),
      update: (_old, app) => checkImage(app.spec.image),
    })
    .complete();
  webhookManagedBy(mgr)
    .for(WebAppV1alpha1)
    .defaulter((app) => {
      app.spec.instances ??= 1;
    })
    .validator({
      create: (app) => checkImage(app.spec.image),
      update: (_old, app) => checkImage(app.spec.image),
    })
    .complete();
  setupWebAppConversion(mgr);
}

function checkImage(image: string) {
  if (isPinnedImage(image)) return undefined;
  return deny(`image ${JSON.stringify(image)} has no tag: production WebApps must pin a tag or digest`, {
    causes: [{ reason: 'FieldValueInvalid', field: 'spec.image', message: 'must have a tag or digest' }],
  });
}

/**
 * The two webhook configurations for a cluster, from what `setupWebAppWebhooks` registers: the
 * defaulter everywhere, the validator in production namespaces only. cert-manager injects the CA.
 */
export function webAppWebhookManifests(mgr: Manager, target: WebhookTarget) {
  const registrations = webhookServerFor(mgr).registrations();
  const annotations = { 'cert-manager.io/inject-ca-from': 'webapp-system/webapp-webhook-cert' };
  const { mutating } = webhookConfigurations(registrations, { name: 'webapp-defaulting', target });
  const { validating } = webhookConfigurations(registrations, {
    name: 'webapp-validation',
    target,
    namespaceSelector: PRODUCTION_SELECTOR,
  });
  return [
    { ...mutating!, metadata: { ...mutating!.metadata, annotations } },
    { ...validating!, metadata: { ...validating!.metadata, annotations } },
  ];
}
