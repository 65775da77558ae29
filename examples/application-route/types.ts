/**
 * The ApplicationRoute API (`networking.converge.dev/v1alpha1`) and the Gateway API HTTPRoute it is
 * rendered into: TypeScript types and resource descriptors. `crd.yaml` and `httproute-crd.yaml` are
 * the server-side truth; these types mirror them.
 */
import { defineResource, type Condition, type KubeObject } from 'kube-converge/meta';

export interface Backend {
  service: string;
  port: number;
  /** Defaulted to 1 by the CRD schema. */
  weight?: number;
}

export interface ApplicationRouteSpec {
  hostnames: string[];
  backends: Backend[];
  /** A TLS Secret in the route's namespace. */
  tlsSecret?: string;
  /** Gateway API duration, e.g. `2s`. */
  timeout?: string;
}

export interface ApplicationRouteStatus {
  observedGeneration?: number;
  conditions?: Condition[];
}

export const ApplicationRoute = defineResource<ApplicationRouteSpec, ApplicationRouteStatus>({
  group: 'networking.converge.dev',
  version: 'v1alpha1',
  kind: 'ApplicationRoute',
  plural: 'applicationroutes',
  namespaced: true,
});

export interface HTTPBackendRef {
  group?: string;
  kind?: string;
  name: string;
  namespace?: string;
  port?: number;
  weight?: number;
}

export interface HTTPRouteRule {
  matches?: { path?: { type?: 'Exact' | 'PathPrefix' | 'RegularExpression'; value?: string }; method?: string }[];
  backendRefs?: HTTPBackendRef[];
  timeouts?: { request?: string; backendRequest?: string };
}

export interface HTTPRouteSpec {
  parentRefs?: { group?: string; kind?: string; namespace?: string; name: string; sectionName?: string; port?: number }[];
  hostnames?: string[];
  rules?: HTTPRouteRule[];
}

export interface HTTPRoute extends KubeObject {
  spec: HTTPRouteSpec;
  status?: { parents?: unknown[] };
}

export const HTTPRouteResource = defineResource<HTTPRouteSpec, unknown, HTTPRoute>({
  group: 'gateway.networking.k8s.io',
  version: 'v1',
  kind: 'HTTPRoute',
  plural: 'httproutes',
  namespaced: true,
});

/** Field index: routes by each backend Service name (several values per route; namespaced by the manager). */
export const BACKEND_SERVICE_INDEX = 'applicationRoute.backendService';
/** Field index: routes by TLS Secret name (namespaced by the manager). */
export const TLS_SECRET_INDEX = 'applicationRoute.tlsSecret';
/** The Gateway every rendered route attaches to. */
export const GATEWAY_NAME = 'converge-gateway';
/** Annotation on the HTTPRoute naming the TLS Secret the Gateway listener should use. */
export const TLS_SECRET_ANNOTATION = 'networking.converge.dev/tls-secret';
