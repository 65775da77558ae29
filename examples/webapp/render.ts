/**
 * Desired state of a WebApp's children, as pure functions of the WebApp and its ConfigMap. The
 * reconciler compares these with what exists and writes only the difference; because they are
 * pure, the same inputs always give the same children (no timestamps, no random names).
 */
import { createHash } from 'node:crypto';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { namespacedNameOf, type DeploymentResource, type ObjectOf, type ServiceResource } from 'kube-converge/meta';
import { CONFIG_HASH_ANNOTATION, type WebApp } from './types.js';

type WebAppObject = ObjectOf<typeof WebApp>;
type Deployment = ObjectOf<typeof DeploymentResource>;
type Service = ObjectOf<typeof ServiceResource>;

/** Stable hash of a ConfigMap's data (key order does not matter); '' when there is no ConfigMap. */
export function configHash(cm: ConfigMap | undefined): string {
  if (!cm) return '';
  const h = createHash('sha256');
  for (const field of ['data', 'binaryData'] as const) {
    const d = cm[field] ?? {};
    for (const k of Object.keys(d).sort()) h.update(`${field}\0${k}\0${d[k]}\0`);
  }
  return h.digest('hex').slice(0, 16);
}

export function selectorLabels(app: WebAppObject): Record<string, string> {
  return { 'app.kubernetes.io/name': app.metadata.name!, 'app.kubernetes.io/managed-by': 'webapp-operator' };
}

/** The fields of the Deployment the operator owns (everything else is left to the server and others). */
export function desiredDeployment(app: WebAppObject, hash: string): Deployment {
  const labels = selectorLabels(app);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { ...namespacedNameOf(app), labels },
    spec: {
      replicas: app.spec.replicas ?? 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels, annotations: { [CONFIG_HASH_ANNOTATION]: hash } },
        spec: {
          containers: [
            {
              name: 'app',
              image: app.spec.image,
              ports: [{ name: 'http', containerPort: app.spec.port ?? 8080 }],
              ...(app.spec.configRef ? { envFrom: [{ configMapRef: { name: app.spec.configRef } }] } : {}),
            },
          ],
        },
      },
    },
  };
}

export function desiredService(app: WebAppObject): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { ...namespacedNameOf(app), labels: selectorLabels(app) },
    spec: {
      selector: selectorLabels(app),
      ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
    },
  };
}
