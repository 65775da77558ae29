// Gateway API HTTPRoute (gateway.networking.k8s.io/v1) written as a schema-first definition: the
// structure of the public API (fields, types, required, enums, patterns, bounds, defaults), in our
// own code. Descriptions and CEL rules are left out; the corpus test compares the rest with the
// schema the installed @kubernetes-models/gateway-api package publishes.
import { Type, type TSchema } from 'typebox';
import { Conditions, defineCustomResource, listMap } from 'kube-converge/schema';

const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const GROUP = `^$|${DNS_SUBDOMAIN}`;
const KIND = '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$';
const NAMESPACE = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const HEADER_NAME = "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$";
const DURATION = '^([0-9]{1,5}(h|m|s|ms)){1,4}$';
/** A route's hostnames may start with a wildcard label. */
const ROUTE_HOSTNAME = '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

const opt = <T extends TSchema>(t: T) => Type.Optional(t);
const group = (def?: string) => Type.String({ maxLength: 253, pattern: GROUP, ...(def !== undefined ? { default: def } : {}) });
const kind = (def?: string) => Type.String({ maxLength: 63, minLength: 1, pattern: KIND, ...(def !== undefined ? { default: def } : {}) });
const name = () => Type.String({ maxLength: 253, minLength: 1 });
const namespace = () => Type.String({ maxLength: 63, minLength: 1, pattern: NAMESPACE });
const port = () => Type.Integer({ format: 'int32', minimum: 1, maximum: 65535 });
const hostname = () => Type.String({ maxLength: 253, minLength: 1, pattern: DNS_SUBDOMAIN });

const ParentReference = () =>
  Type.Object({
    group: opt(group('gateway.networking.k8s.io')),
    kind: opt(kind('Gateway')),
    name: name(),
    namespace: opt(namespace()),
    port: opt(port()),
    sectionName: opt(Type.String({ maxLength: 253, minLength: 1, pattern: DNS_SUBDOMAIN })),
  });

const BackendObjectReference = () =>
  Type.Object({ group: opt(group('')), kind: opt(kind('Service')), name: name(), namespace: opt(namespace()), port: opt(port()) });

const header = () =>
  Type.Object({
    name: Type.String({ maxLength: 256, minLength: 1, pattern: HEADER_NAME }),
    value: Type.String({ maxLength: 4096, minLength: 1 }),
  });
const HeaderModifier = () =>
  Type.Object({
    add: opt(listMap(Type.Array(header(), { maxItems: 16 }), ['name'])),
    remove: opt(Type.Array(Type.String(), { maxItems: 16 })),
    set: opt(listMap(Type.Array(header(), { maxItems: 16 }), ['name'])),
  });

const PathModifier = () =>
  Type.Object({
    replaceFullPath: opt(Type.String({ maxLength: 1024 })),
    replacePrefixMatch: opt(Type.String({ maxLength: 1024 })),
    type: Type.Union([Type.Literal('ReplaceFullPath'), Type.Literal('ReplacePrefixMatch')]),
  });

const Filter = () =>
  Type.Object({
    extensionRef: opt(Type.Object({ group: group(), kind: kind(), name: name() })),
    requestHeaderModifier: opt(HeaderModifier()),
    requestMirror: opt(Type.Object({ backendRef: BackendObjectReference() })),
    requestRedirect: opt(
      Type.Object({
        hostname: opt(hostname()),
        path: opt(PathModifier()),
        port: opt(port()),
        scheme: opt(Type.Union([Type.Literal('http'), Type.Literal('https')])),
        statusCode: opt(Type.Union([Type.Literal(301), Type.Literal(302)], { default: 302 })),
      }),
    ),
    responseHeaderModifier: opt(HeaderModifier()),
    type: Type.Union(
      ['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestMirror', 'RequestRedirect', 'URLRewrite', 'ExtensionRef'].map((l) =>
        Type.Literal(l),
      ),
    ),
    urlRewrite: opt(Type.Object({ hostname: opt(hostname()), path: opt(PathModifier()) })),
  });

const match = (valueMaxLength: number) =>
  Type.Object({
    name: Type.String({ maxLength: 256, minLength: 1, pattern: HEADER_NAME }),
    type: opt(Type.Union([Type.Literal('Exact'), Type.Literal('RegularExpression')], { default: 'Exact' })),
    value: Type.String({ maxLength: valueMaxLength, minLength: 1 }),
  });

const DEFAULT_PATH = { type: 'PathPrefix', value: '/' };
const Match = () =>
  Type.Object({
    headers: opt(listMap(Type.Array(match(4096), { maxItems: 16 }), ['name'])),
    method: opt(Type.Union(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'].map((m) => Type.Literal(m)))),
    path: opt(
      Type.Object(
        {
          type: opt(
            Type.Union([Type.Literal('Exact'), Type.Literal('PathPrefix'), Type.Literal('RegularExpression')], { default: 'PathPrefix' }),
          ),
          value: opt(Type.String({ maxLength: 1024, default: '/' })),
        },
        { default: DEFAULT_PATH },
      ),
    ),
    queryParams: opt(listMap(Type.Array(match(1024), { maxItems: 16 }), ['name'])),
  });

const Rule = () =>
  Type.Object({
    backendRefs: opt(
      Type.Array(
        Type.Object({
          filters: opt(Type.Array(Filter(), { maxItems: 16 })),
          group: opt(group('')),
          kind: opt(kind('Service')),
          name: name(),
          namespace: opt(namespace()),
          port: opt(port()),
          weight: opt(Type.Integer({ default: 1, format: 'int32', minimum: 0, maximum: 1000000 })),
        }),
        { maxItems: 16 },
      ),
    ),
    filters: opt(Type.Array(Filter(), { maxItems: 16 })),
    matches: opt(Type.Array(Match(), { default: [{ path: DEFAULT_PATH }], maxItems: 8 })),
    timeouts: opt(
      Type.Object({ backendRequest: opt(Type.String({ pattern: DURATION })), request: opt(Type.String({ pattern: DURATION })) }),
    ),
  });

export const HTTPRoute = defineCustomResource({
  group: 'gateway.networking.k8s.io',
  kind: 'HTTPRoute',
  categories: ['gateway-api'],
  scope: 'Namespaced',
  versions: {
    v1: {
      served: true,
      storage: true,
      subresources: { status: true },
      spec: Type.Object({
        hostnames: opt(Type.Array(Type.String({ maxLength: 253, minLength: 1, pattern: ROUTE_HOSTNAME }), { maxItems: 16 })),
        parentRefs: opt(Type.Array(ParentReference(), { maxItems: 32 })),
        rules: opt(Type.Array(Rule(), { default: [{ matches: [{ path: DEFAULT_PATH }] }], maxItems: 16 })),
      }),
      status: Type.Object({
        parents: Type.Array(
          Type.Object({
            conditions: opt(Conditions({ minItems: 1, maxItems: 8 })),
            controllerName: Type.String({
              maxLength: 253,
              minLength: 1,
              pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9\\/\\-._~%!$&'()*+,;=:]+$",
            }),
            parentRef: ParentReference(),
          }),
          { maxItems: 32 },
        ),
      }),
      printerColumns: [
        { name: 'Hostnames', type: 'string', jsonPath: '.spec.hostnames' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
  },
});
