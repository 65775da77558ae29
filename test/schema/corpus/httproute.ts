// Gateway API HTTPRoute (gateway.networking.k8s.io/v1) written as a schema-first definition: the
// structure of the public API (fields, types, required, enums, patterns, bounds, defaults), in our
// own code, with CEL rules for the constraints the API documents (a filter's type names the one
// field it sets, paths are normalised, filters that conflict or repeat, parent references to the
// same parent need a section or port, a backend timeout within the request timeout). Descriptions
// are left out; the corpus test compares the structure with the schema the installed
// @kubernetes-models/gateway-api package publishes, and httproute-rules.test.ts runs the rules.
import { Type, type TSchema } from 'typebox';
import { Conditions, defineCustomResource, listMap, withValidations, type ValidationRule } from 'kube-converge/schema';

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

/** A rule pair per modifier type: the field must be set for its type, and only for its type. */
const setForItsType = (field: string, type: string): ValidationRule[] => [
  { rule: `self.type == '${type}' ? has(self.${field}) : true`, message: `${field} must be specified when type is set to '${type}'` },
  { rule: `has(self.${field}) ? self.type == '${type}' : true`, message: `type must be '${type}' when ${field} is set` },
];

const PathModifier = () =>
  withValidations(
    Type.Object({
      replaceFullPath: opt(Type.String({ maxLength: 1024 })),
      replacePrefixMatch: opt(Type.String({ maxLength: 1024 })),
      type: Type.Union([Type.Literal('ReplaceFullPath'), Type.Literal('ReplacePrefixMatch')]),
    }),
    [...setForItsType('replaceFullPath', 'ReplaceFullPath'), ...setForItsType('replacePrefixMatch', 'ReplacePrefixMatch')],
  );

const FILTER_FIELDS: Record<string, string> = {
  RequestHeaderModifier: 'requestHeaderModifier',
  ResponseHeaderModifier: 'responseHeaderModifier',
  RequestMirror: 'requestMirror',
  RequestRedirect: 'requestRedirect',
  URLRewrite: 'urlRewrite',
  ExtensionRef: 'extensionRef',
};
const filterRules: ValidationRule[] = Object.entries(FILTER_FIELDS).flatMap(([type, field]) => [
  { rule: `!(has(self.${field}) && self.type != '${type}')`, message: `filter.${field} must be nil if the filter.type is not ${type}` },
  { rule: `!(!has(self.${field}) && self.type == '${type}')`, message: `filter.${field} must be specified for ${type} filter.type` },
]);

/** Rules over a list of filters: redirect and rewrite exclude each other, and no modifier repeats. */
const filterListRules: ValidationRule[] = [
  {
    rule: "!(self.exists(f, f.type == 'RequestRedirect') && self.exists(f, f.type == 'URLRewrite'))",
    message: 'May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both',
  },
  ...['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestRedirect', 'URLRewrite'].map((type) => ({
    rule: `self.filter(f, f.type == '${type}').size() <= 1`,
    message: `${type} filter cannot be repeated`,
  })),
];

const Filter = () =>
  withValidations(
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
    }),
    filterRules,
  );
const Filters = () => withValidations(Type.Array(Filter(), { maxItems: 16 }), filterListRules);

const match = (valueMaxLength: number) =>
  Type.Object({
    name: Type.String({ maxLength: 256, minLength: 1, pattern: HEADER_NAME }),
    type: opt(Type.Union([Type.Literal('Exact'), Type.Literal('RegularExpression')], { default: 'Exact' })),
    value: Type.String({ maxLength: valueMaxLength, minLength: 1 }),
  });

const DEFAULT_PATH = { type: 'PathPrefix', value: '/' };
/** What an `Exact` or `PathPrefix` path may not be: relative, or not in normal form. */
const PREFIX_OR_EXACT = "(self.type in ['Exact', 'PathPrefix'])";
const PATH_CHARACTERS = "^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$";
const pathRules: ValidationRule[] = [
  {
    rule: `${PREFIX_OR_EXACT} ? self.value.startsWith('/') : true`,
    message: "value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
  },
  ...['//', '/./', '/../', '%2f', '%2F', '#'].map((part) => ({
    rule: `${PREFIX_OR_EXACT} ? !self.value.contains('${part}') : true`,
    message: `must not contain '${part}' when type one of ['Exact', 'PathPrefix']`,
  })),
  ...['/..', '/.'].map((end) => ({
    rule: `${PREFIX_OR_EXACT} ? !self.value.endsWith('${end}') : true`,
    message: `must not end with '${end}' when type one of ['Exact', 'PathPrefix']`,
  })),
  {
    rule: `${PREFIX_OR_EXACT} ? self.value.matches(r"""${PATH_CHARACTERS}""") : true`,
    message: `must only contain valid characters (matching ${PATH_CHARACTERS}) for types ['Exact', 'PathPrefix']`,
  },
  {
    rule: "self.type == 'RegularExpression' ? self.value.size() > 0 : true",
    message: 'a RegularExpression path must not be empty',
  },
];
const Match = () =>
  Type.Object({
    headers: opt(listMap(Type.Array(match(4096), { maxItems: 16 }), ['name'])),
    method: opt(Type.Union(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'].map((m) => Type.Literal(m)))),
    path: opt(
      withValidations(
        Type.Object(
          {
            type: opt(
              Type.Union([Type.Literal('Exact'), Type.Literal('PathPrefix'), Type.Literal('RegularExpression')], { default: 'PathPrefix' }),
            ),
            value: opt(Type.String({ maxLength: 1024, default: '/' })),
          },
          { default: DEFAULT_PATH },
        ),
        pathRules,
      ),
    ),
    queryParams: opt(listMap(Type.Array(match(1024), { maxItems: 16 }), ['name'])),
  });

const Rule = () =>
  Type.Object({
    backendRefs: opt(
      Type.Array(
        Type.Object({
          filters: opt(Filters()),
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
    filters: opt(Filters()),
    matches: opt(Type.Array(Match(), { default: [{ path: DEFAULT_PATH }], maxItems: 8 })),
    timeouts: opt(
      withValidations(
        Type.Object({ backendRequest: opt(Type.String({ pattern: DURATION })), request: opt(Type.String({ pattern: DURATION })) }),
        [
          {
            rule: "!(has(self.request) && has(self.backendRequest) && duration(self.request) != duration('0s') && duration(self.backendRequest) > duration(self.request))",
            message: 'backendRequest timeout cannot be longer than request timeout',
          },
        ],
      ),
    ),
  });

/** Two references to one parent (same group, kind, name and namespace) must each name a section or a port. */
const unset = (p: string, field: string, zero: string) => `(!has(${p}.${field}) || ${p}.${field} == ${zero})`;
const SAME_PARENT_NEEDS_SECTION: ValidationRule = {
  rule:
    'self.all(p1, self.all(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && ' +
    `((${unset('p1', '__namespace__', "''")} && ${unset('p2', '__namespace__', "''")}) || ` +
    '(has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__)) ? ' +
    `(${unset('p1', 'sectionName', "''")} == ${unset('p2', 'sectionName', "''")} && ${unset('p1', 'port', '0')} == ${unset('p2', 'port', '0')}) : true))`,
  message: 'sectionName or port must be specified when parentRefs includes 2 or more references to the same parent',
};

/** …and no two references to one parent may name the same section and port. */
const same = (field: string, zero: string) =>
  `((${unset('p1', field, zero)} && ${unset('p2', field, zero)}) || (has(p1.${field}) && has(p2.${field}) && p1.${field} == p2.${field}))`;
const SAME_PARENT_UNIQUE: ValidationRule = {
  rule:
    'self.all(p1, self.exists_one(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && ' +
    `${same('__namespace__', "''")} && ${same('sectionName', "''")} && ${same('port', '0')}))`,
  message: 'sectionName or port must be unique when parentRefs includes 2 or more references to the same parent',
};

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
        parentRefs: opt(withValidations(Type.Array(ParentReference(), { maxItems: 32 }), [SAME_PARENT_NEEDS_SECTION, SAME_PARENT_UNIQUE])),
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
