/**
 * Validating- and MutatingWebhookConfigurations: stored like the other plain built-ins, and refused
 * (422) when a webhook's `matchConditions` would fail at admission for a reason known now — a
 * missing or repeated name, too many conditions, an expression that does not compile — so every
 * stored condition compiles.
 */
import type { KubeObject } from '../../meta/index.js';
import { matchConditionErrors } from '../admission-cel/index.js';
import type { FieldCause } from '../ground/index.js';
import type { BuiltinKind } from './builtin-kind.js';
import { StoredBuiltinStrategy, storedBuiltinRecord, type StoredBuiltinDefinition } from './stored-builtin.js';

export class WebhookConfigurationStrategy extends StoredBuiltinStrategy {
  override validate(obj: KubeObject): FieldCause[] {
    const webhooks = (obj as { webhooks?: unknown }).webhooks;
    if (!Array.isArray(webhooks)) return [];
    return webhooks.flatMap((w: { matchConditions?: unknown } | null, i) =>
      matchConditionErrors(w?.matchConditions, `webhooks[${i}].matchConditions`),
    );
  }
}

const webhookConfiguration = (kind: string): StoredBuiltinDefinition => ({
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind,
  plural: `${kind.toLowerCase()}s`,
  namespaced: false,
  categories: ['api-extensions'],
  generation: true,
});

const validating = webhookConfiguration('ValidatingWebhookConfiguration');
const mutating = webhookConfiguration('MutatingWebhookConfiguration');

/** ValidatingWebhookConfigurations. */
export const validatingWebhookConfigurationKind: BuiltinKind = storedBuiltinRecord(
  validating,
  () => new WebhookConfigurationStrategy(validating),
);
/** MutatingWebhookConfigurations. */
export const mutatingWebhookConfigurationKind: BuiltinKind = storedBuiltinRecord(
  mutating,
  () => new WebhookConfigurationStrategy(mutating),
);
