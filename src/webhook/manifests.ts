/**
 * Deployment manifests for a webhook server's registrations: the Mutating- and
 * ValidatingWebhookConfiguration (one webhook per registered kind, rules from what was registered)
 * and a CRD's `spec.conversion` block, pointing at a Service in a cluster or at a URL (TestEnv).
 * Invariant: the manifests are derived from the registrations only, so a path, an operation or a
 * side-effect class can never be declared differently from what the server serves.
 */
import type {
  MutatingWebhook,
  MutatingWebhookConfiguration,
  RuleWithOperations,
  ValidatingWebhook,
  ValidatingWebhookConfiguration,
  WebhookClientConfig,
} from 'kubernetes-types/admissionregistration/v1.js';
import type { CustomResourceConversion } from 'kubernetes-types/apiextensions/v1.js';
import type { LabelSelector } from '../meta/index.js';
import { ADMISSION_REVIEW_VERSIONS } from './admission-review.js';
import { CONVERT_PATH } from './paths.js';
import type { AdmissionRegistration } from './webhook-server.js';

/** Where the API server reaches the webhook server: a Service (port default 443) or a base URL. */
export type WebhookTarget = { service: { namespace: string; name: string; port?: number } } | { url: string };

/** Options of `webhookConfigurations`: the objects' name, the target, the CA and what applies to every webhook. */
export interface WebhookManifestOptions {
  /** `metadata.name` of both configurations. */
  name: string;
  target: WebhookTarget;
  /** PEM of the CA that signed the serving certificate (base64-encoded into `caBundle`); omit when cert-manager injects it. */
  caPem?: string;
  /** Default `Fail`. */
  failurePolicy?: 'Fail' | 'Ignore';
  /** Default 10 (the API server's default). */
  timeoutSeconds?: number;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
}

/** The clientConfig of the webhook served at `path`. */
export function clientConfigFor(target: WebhookTarget, path: string, caPem?: string): WebhookClientConfig {
  const caBundle = caPem === undefined ? {} : { caBundle: Buffer.from(caPem).toString('base64') };
  if ('url' in target) return { url: `${target.url.replace(/\/$/, '')}${path}`, ...caBundle };
  const { namespace, name, port } = target.service;
  return { service: { namespace, name, path, port: port ?? 443 }, ...caBundle };
}

/** A webhook's name: fully qualified (three segments at least), unique per kind, version and type. */
function webhookName(r: AdmissionRegistration): string {
  const singular = r.path.split('-').at(-1)!;
  return `${r.type === 'mutating' ? 'm' : 'v'}${singular}-${r.version}.${r.group === '' ? 'core.webhook.converge.dev' : r.group}`;
}

/** A rule as the API reads it; kubernetes-types 1.30 leaves `resources` and `scope` out of `RuleWithOperations`. */
interface WebhookRule extends RuleWithOperations {
  resources: string[];
  scope: 'Namespaced' | 'Cluster';
}

function webhookOf(r: AdmissionRegistration, o: WebhookManifestOptions): ValidatingWebhook {
  const rule: WebhookRule = {
    apiGroups: [r.group],
    apiVersions: [r.version],
    operations: [...r.operations],
    resources: [r.plural],
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
  };
  return {
    name: webhookName(r),
    admissionReviewVersions: [...ADMISSION_REVIEW_VERSIONS],
    clientConfig: clientConfigFor(o.target, r.path, o.caPem),
    rules: [rule],
    sideEffects: r.sideEffects,
    failurePolicy: o.failurePolicy ?? 'Fail',
    timeoutSeconds: o.timeoutSeconds ?? 10,
    ...(o.namespaceSelector ? { namespaceSelector: o.namespaceSelector } : {}),
    ...(o.objectSelector ? { objectSelector: o.objectSelector } : {}),
  };
}

/** The webhook configurations of `registrations` (a `WebhookServer`'s); a type with no webhook is left out. */
export function webhookConfigurations(
  registrations: readonly AdmissionRegistration[],
  options: WebhookManifestOptions,
): { mutating?: MutatingWebhookConfiguration; validating?: ValidatingWebhookConfiguration } {
  const mutating: MutatingWebhook[] = registrations
    .filter((r) => r.type === 'mutating')
    .map((r) => ({ ...webhookOf(r, options), reinvocationPolicy: 'Never' }));
  const validating = registrations.filter((r) => r.type === 'validating').map((r) => webhookOf(r, options));
  const metadata = { name: options.name };
  return {
    ...(mutating.length
      ? { mutating: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata, webhooks: mutating } }
      : {}),
    ...(validating.length
      ? {
          validating: {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'ValidatingWebhookConfiguration',
            metadata: { ...metadata },
            webhooks: validating,
          },
        }
      : {}),
  };
}

/** A CRD's `spec.conversion` sending every conversion to the webhook server's `/convert`. */
export function conversionWebhookBlock(target: WebhookTarget, caPem?: string): CustomResourceConversion {
  return {
    strategy: 'Webhook',
    webhook: { clientConfig: clientConfigFor(target, CONVERT_PATH, caPem), conversionReviewVersions: ['v1', 'v1beta1'] },
  };
}
