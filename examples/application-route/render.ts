/**
 * The desired HTTPRoute of an ApplicationRoute, and the dependency check that gates it, as pure
 * functions. The reconciler feeds them what the cache holds now; they never look at events.
 */
import { namespacedNameOf, type ObjectOf } from 'kube-converge/meta';
import { GATEWAY_NAME, TLS_SECRET_ANNOTATION, type ApplicationRoute, type HTTPRoute } from './types.js';

type Route = ObjectOf<typeof ApplicationRoute>;

/**
 * Index values: the name of every backend Service of a route, each once. The manager's field index
 * scopes values by the route's namespace itself (a `namespace/name` encoding, done for us),
 * so a lookup lists in the Service's namespace with the bare name.
 */
export function backendServiceNames(route: Route): string[] {
  return [...new Set(route.spec.backends.map((b) => b.service))];
}

/** Index values: the name of the route's TLS Secret, or none (scoped by namespace like the above). */
export function tlsSecretNames(route: Route): string[] {
  return route.spec.tlsSecret ? [route.spec.tlsSecret] : [];
}

/**
 * What is missing for a route to be served, given which Services and Secrets exist. Returns a
 * human-readable reason (`ServiceNotFound`/`SecretNotFound`) and message, or undefined when all exist.
 */
export function missingDependencies(
  route: Route,
  exists: { service(name: string): boolean; secret(name: string): boolean },
): { reason: 'ServiceNotFound' | 'SecretNotFound'; message: string } | undefined {
  const services = route.spec.backends.map((b) => b.service).filter((s) => !exists.service(s));
  if (services.length > 0) {
    return { reason: 'ServiceNotFound', message: `backend Service(s) not found: ${[...new Set(services)].sort().join(', ')}` };
  }
  if (route.spec.tlsSecret && !exists.secret(route.spec.tlsSecret)) {
    return { reason: 'SecretNotFound', message: `TLS Secret not found: ${route.spec.tlsSecret}` };
  }
  return undefined;
}

export function desiredHTTPRoute(route: Route): HTTPRoute {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: {
      ...namespacedNameOf(route),
      labels: { 'app.kubernetes.io/managed-by': 'applicationroute-operator' },
      ...(route.spec.tlsSecret ? { annotations: { [TLS_SECRET_ANNOTATION]: route.spec.tlsSecret } } : {}),
    },
    spec: {
      parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: GATEWAY_NAME }],
      hostnames: [...route.spec.hostnames],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: route.spec.backends.map((b) => ({
            group: '',
            kind: 'Service',
            name: b.service,
            port: b.port,
            weight: b.weight ?? 1,
          })),
          ...(route.spec.timeout ? { timeouts: { request: route.spec.timeout } } : {}),
        },
      ],
    },
  };
}
