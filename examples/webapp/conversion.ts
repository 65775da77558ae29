/**
 * The WebApp's conversion webhook: `v1` is the hub, `v1alpha1` its one spoke, and the only difference
 * is the replica count's name (`instances` then, `replicas` now), so a round trip through either
 * version loses nothing. Served by the manager's webhook server at `/convert`; the definition's
 * `conversion` (in `types.ts`, and so the generated CRD's `spec.conversion`) points there.
 */
import type { ObjectOf } from 'kube-converge/meta';
import type { Manager } from 'kube-converge/manager';
import { conversionWebhookBlock, defineConversion, spoke, webhookManagedBy, type WebhookTarget } from 'kube-converge/webhook';
import { WebApp, WebAppV1alpha1, type WebAppSpec, type WebAppSpecV1alpha1 } from './types.js';

type WebAppV1Object = ObjectOf<typeof WebApp>;
type WebAppV1alpha1Object = ObjectOf<typeof WebAppV1alpha1>;

/** Moves `from` to `to` in a spec copy (absent stays absent). */
function renamed<S extends object>(spec: object, from: string, to: string): S {
  const { [from]: value, ...rest } = spec as Record<string, unknown>;
  return (value === undefined ? rest : { ...rest, [to]: value }) as S;
}

export const webAppConversion = defineConversion<WebAppV1Object>({
  hub: WebApp,
  spokes: [
    spoke<WebAppV1Object, WebAppV1alpha1Object>(WebAppV1alpha1, {
      toHub: (old) => ({ ...old, spec: renamed<WebAppSpec>(old.spec, 'instances', 'replicas') }) as WebAppV1Object,
      fromHub: (app) => ({ ...app, spec: renamed<WebAppSpecV1alpha1>(app.spec, 'replicas', 'instances') }) as WebAppV1alpha1Object,
    }),
  ],
});

/** Serves the WebApp conversion on the manager's webhook server. */
export function setupWebAppConversion(mgr: Manager): void {
  webhookManagedBy(mgr).for(WebApp).conversion(webAppConversion).complete();
}

/** The CRD's `spec.conversion` for a cluster: the webhook Service, the CA injected by cert-manager. */
export const webAppConversionBlock = (target: WebhookTarget) => conversionWebhookBlock(target);
