// Prometheus-operator's ServiceMonitor (monitoring.coreos.com/v1, at the release the installed
// @kubernetes-models/prometheus-operator package was generated from) written as a schema-first
// definition: fields, types, required fields, enums, patterns, formats, bounds and defaults of the
// public API, in our own code. Descriptions and CEL rules are left out; the corpus tests hold the rest
// against what the package ships for this kind (its declarations and its validator).
import { Type, type TSchema } from 'typebox';
import { IntOrString, LabelSelector, Quantity, defineCustomResource, listMap, listSet, mapType } from 'kube-converge/schema';

const opt = <T extends TSchema>(t: T) => Type.Optional(t);
const strings = () => Type.Array(Type.String());
const int64 = () => Type.Integer({ format: 'int64' });
const enumOf = <const L extends readonly string[]>(...values: L) => Type.Union(values.map((v) => Type.Literal(v)));

/** Prometheus' duration: `30s`, `1h30m`, `0`. */
const DURATION = '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$';
const duration = () => Type.String({ pattern: DURATION });

/** A key of a Secret or ConfigMap in the object's namespace (`corev1.SecretKeySelector`), replaced as a whole by server-side apply. */
const KeySelector = () =>
  mapType(Type.Object({ key: Type.String(), name: opt(Type.String({ default: '' })), optional: opt(Type.Boolean()) }), 'atomic');
const SecretOrConfigMap = () => Type.Object({ configMap: opt(KeySelector()), secret: opt(KeySelector()) });

const TLS_VERSION = ['TLS10', 'TLS11', 'TLS12', 'TLS13'] as const;
const safeTls = {
  ca: opt(SecretOrConfigMap()),
  cert: opt(SecretOrConfigMap()),
  insecureSkipVerify: opt(Type.Boolean()),
  keySecret: opt(KeySelector()),
  maxVersion: opt(enumOf(...TLS_VERSION)),
  minVersion: opt(enumOf(...TLS_VERSION)),
  serverName: opt(Type.String()),
};

const proxy = {
  noProxy: opt(Type.String()),
  proxyConnectHeader: opt(mapType(Type.Record(Type.String(), Type.Array(KeySelector())), 'atomic')),
  proxyFromEnvironment: opt(Type.Boolean()),
  proxyUrl: opt(Type.String({ pattern: '^(http|https|socks5)://.+$' })),
};

const OAuth2 = () =>
  Type.Object({
    clientId: SecretOrConfigMap(),
    clientSecret: KeySelector(),
    endpointParams: opt(Type.Record(Type.String(), Type.String())),
    scopes: opt(strings()),
    tlsConfig: opt(Type.Object(safeTls)),
    tokenUrl: Type.String({ minLength: 1 }),
    ...proxy,
  });

const RELABEL_ACTIONS = [
  'replace',
  'Replace',
  'keep',
  'Keep',
  'drop',
  'Drop',
  'hashmod',
  'HashMod',
  'labelmap',
  'LabelMap',
  'labeldrop',
  'LabelDrop',
  'labelkeep',
  'LabelKeep',
  'lowercase',
  'Lowercase',
  'uppercase',
  'Uppercase',
  'keepequal',
  'KeepEqual',
  'dropequal',
  'DropEqual',
] as const;
const RelabelConfig = () =>
  Type.Object({
    action: opt(
      Type.Union(
        RELABEL_ACTIONS.map((a) => Type.Literal(a)),
        { default: 'replace' },
      ),
    ),
    modulus: opt(int64()),
    regex: opt(Type.String()),
    replacement: opt(Type.String()),
    separator: opt(Type.String()),
    sourceLabels: opt(strings()),
    targetLabel: opt(Type.String()),
  });

const Endpoint = () =>
  Type.Object({
    authorization: opt(Type.Object({ credentials: opt(KeySelector()), type: opt(Type.String()) })),
    basicAuth: opt(Type.Object({ password: opt(KeySelector()), username: opt(KeySelector()) })),
    bearerTokenFile: opt(Type.String()),
    bearerTokenSecret: opt(KeySelector()),
    enableHttp2: opt(Type.Boolean()),
    filterRunning: opt(Type.Boolean()),
    followRedirects: opt(Type.Boolean()),
    honorLabels: opt(Type.Boolean()),
    honorTimestamps: opt(Type.Boolean()),
    interval: opt(duration()),
    metricRelabelings: opt(Type.Array(RelabelConfig())),
    oauth2: opt(OAuth2()),
    params: opt(Type.Record(Type.String(), strings())),
    path: opt(Type.String()),
    port: opt(Type.String()),
    relabelings: opt(Type.Array(RelabelConfig())),
    scheme: opt(enumOf('http', 'https', 'HTTP', 'HTTPS')),
    scrapeTimeout: opt(duration()),
    targetPort: opt(IntOrString()),
    tlsConfig: opt(Type.Object({ ...safeTls, caFile: opt(Type.String()), certFile: opt(Type.String()), keyFile: opt(Type.String()) })),
    trackTimestampsStaleness: opt(Type.Boolean()),
    ...proxy,
  });

const SCRAPE_PROTOCOLS = [
  'PrometheusProto',
  'OpenMetricsText0.0.1',
  'OpenMetricsText1.0.0',
  'PrometheusText0.0.4',
  'PrometheusText1.0.0',
] as const;

const Binding = () =>
  Type.Object({
    conditions: opt(
      listMap(
        Type.Array(
          Type.Object({
            lastTransitionTime: Type.String({ format: 'date-time' }),
            message: opt(Type.String()),
            observedGeneration: opt(int64()),
            reason: opt(Type.String()),
            status: Type.String({ minLength: 1 }),
            type: Type.Literal('Accepted', { minLength: 1 }),
          }),
        ),
        ['type'],
      ),
    ),
    group: Type.Literal('monitoring.coreos.com'),
    name: Type.String({ minLength: 1 }),
    namespace: Type.String({ minLength: 1 }),
    resource: enumOf('prometheuses', 'prometheusagents', 'thanosrulers', 'alertmanagers'),
  });

export const ServiceMonitor = defineCustomResource({
  group: 'monitoring.coreos.com',
  kind: 'ServiceMonitor',
  shortNames: ['smon'],
  categories: ['prometheus-operator'],
  scope: 'Namespaced',
  versions: {
    v1: {
      served: true,
      storage: true,
      subresources: { status: true },
      spec: Type.Object({
        attachMetadata: opt(Type.Object({ node: opt(Type.Boolean()) })),
        bodySizeLimit: opt(Type.String({ pattern: '(^0|([0-9]*[.])?[0-9]+((K|M|G|T|E|P)i?)?B)$' })),
        convertClassicHistogramsToNHCB: opt(Type.Boolean()),
        endpoints: Type.Array(Endpoint()),
        fallbackScrapeProtocol: opt(enumOf(...SCRAPE_PROTOCOLS)),
        jobLabel: opt(Type.String()),
        keepDroppedTargets: opt(int64()),
        labelLimit: opt(int64()),
        labelNameLengthLimit: opt(int64()),
        labelValueLengthLimit: opt(int64()),
        namespaceSelector: opt(Type.Object({ any: opt(Type.Boolean()), matchNames: opt(strings()) })),
        nativeHistogramBucketLimit: opt(int64()),
        nativeHistogramMinBucketFactor: opt(Quantity()),
        podTargetLabels: opt(strings()),
        sampleLimit: opt(int64()),
        scrapeClass: opt(Type.String({ minLength: 1 })),
        scrapeClassicHistograms: opt(Type.Boolean()),
        scrapeNativeHistograms: opt(Type.Boolean()),
        scrapeProtocols: opt(listSet(Type.Array(enumOf(...SCRAPE_PROTOCOLS)))),
        selector: LabelSelector(),
        selectorMechanism: opt(enumOf('RelabelConfig', 'RoleSelector')),
        serviceDiscoveryRole: opt(enumOf('Endpoints', 'EndpointSlice')),
        targetLabels: opt(strings()),
        targetLimit: opt(int64()),
      }),
      status: Type.Object({
        bindings: opt(listMap(Type.Array(Binding()), ['group', 'resource', 'name', 'namespace'])),
      }),
    },
  },
});
