/**
 * The ApplicationRoute API (`networking.converge.dev/v1alpha1`), defined schema-first: its TypeScript
 * type, its descriptor and its CRD (`networking.converge.dev_applicationroutes.yaml`, written by
 * `converge generate`) all come from the definition below. The Gateway API HTTPRoute it is rendered
 * into is a third-party kind: `httproute-crd.yaml` is the server-side truth and its types mirror it.
 */
import { defineResource, type KubeObject, type ObjectOf } from 'kube-converge/meta';
import { Conditions, defineCustomResource } from 'kube-converge/schema';
import { Type, type Static } from 'typebox';

const Backend = Type.Object({
  service: Type.String({ minLength: 1 }),
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  /** Defaulted to 1 by the CRD schema. */
  weight: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 1 })),
});
export type Backend = Static<typeof Backend>;

const ApplicationRouteSpec = Type.Object({
  hostnames: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  backends: Type.Array(Backend, { minItems: 1 }),
  tlsSecret: Type.Optional(Type.String({ description: 'Name of a kubernetes.io/tls Secret in the same namespace.' })),
  timeout: Type.Optional(
    Type.String({ pattern: '^([0-9]{1,5}(h|m|s|ms)){1,4}$', description: 'Request timeout in Gateway API duration form, e.g. 2s.' }),
  ),
});
export type ApplicationRouteSpec = Static<typeof ApplicationRouteSpec>;

const ApplicationRouteStatus = Type.Object({
  observedGeneration: Type.Optional(Type.Integer({ format: 'int64' })),
  conditions: Type.Optional(Conditions()),
});
export type ApplicationRouteStatus = Static<typeof ApplicationRouteStatus>;

export const ApplicationRoute = defineCustomResource({
  group: 'networking.converge.dev',
  kind: 'ApplicationRoute',
  shortNames: ['ar'],
  scope: 'Namespaced',
  versions: {
    v1alpha1: {
      served: true,
      storage: true,
      spec: ApplicationRouteSpec,
      status: ApplicationRouteStatus,
      subresources: { status: true },
      printerColumns: [
        { name: 'Hosts', type: 'string', jsonPath: '.spec.hostnames' },
        { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
  },
});
export type ApplicationRoute = ObjectOf<typeof ApplicationRoute>;

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
