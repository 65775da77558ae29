/**
 * Validating- and MutatingWebhookConfigurations: stored like the other plain built-ins, and refused
 * (422) when a webhook's `matchConditions` would fail at admission for a reason known now — a
 * missing or repeated name, too many conditions, an expression that does not compile — so every
 * stored condition compiles.
 */
import type { KubeObject } from '../../meta/index.js';
import { matchConditionErrors } from '../admission-cel/index.js';
import type { FieldCause } from '../ground/index.js';
import { StoredBuiltinStrategy } from './stored-builtin.js';

export class WebhookConfigurationStrategy extends StoredBuiltinStrategy {
  override validate(obj: KubeObject): FieldCause[] {
    const webhooks = (obj as { webhooks?: unknown }).webhooks;
    if (!Array.isArray(webhooks)) return [];
    return webhooks.flatMap((w: { matchConditions?: unknown } | null, i) =>
      matchConditionErrors(w?.matchConditions, `webhooks[${i}].matchConditions`),
    );
  }
}
