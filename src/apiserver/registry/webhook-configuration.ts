/**
 * Validating- and MutatingWebhookConfigurations: stored like the other plain built-ins, and refused
 * (422) when a webhook's `matchConditions` would fail at admission for a reason known now — a
 * missing or repeated name, too many conditions, an expression that does not compile — so every
 * stored condition compiles. A new condition compiles at the server's compatibility version; one the
 * old configuration already had, as a stored expression.
 */
import type { KubeObject } from '../../meta/index.js';
import { matchConditionErrors } from '../admission-cel/index.js';
import type { FieldCause } from '../ground/index.js';
import type { BuiltinKind } from './builtin-kind.js';
import type { WriteContext } from './strategy.js';
import { StoredBuiltinStrategy, storedBuiltinRecord, type StoredBuiltinDefinition } from './stored-builtin.js';

type Webhook = { matchConditions?: unknown } | null;

const webhooksOf = (obj: KubeObject): Webhook[] => {
  const webhooks = (obj as { webhooks?: unknown }).webhooks;
  return Array.isArray(webhooks) ? webhooks : [];
};

function conditionExpressions(obj: KubeObject): Set<string> {
  const out = new Set<string>();
  for (const w of webhooksOf(obj)) {
    const conditions = w?.matchConditions;
    if (Array.isArray(conditions)) for (const c of conditions) if (typeof c?.expression === 'string') out.add(c.expression);
  }
  return out;
}

export class WebhookConfigurationStrategy extends StoredBuiltinStrategy {
  override validate(obj: KubeObject, ctx: WriteContext): FieldCause[] {
    return this.#conditionErrors(obj, ctx.kubernetesMinor, new Set());
  }

  override validateUpdate(obj: KubeObject, old: KubeObject, ctx: WriteContext): FieldCause[] {
    return this.#conditionErrors(obj, ctx.kubernetesMinor, conditionExpressions(old));
  }

  #conditionErrors(obj: KubeObject, minor: number, stored: ReadonlySet<string>): FieldCause[] {
    return webhooksOf(obj).flatMap((w, i) => matchConditionErrors(w?.matchConditions, `webhooks[${i}].matchConditions`, { minor, stored }));
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
