// The CEL rules of real-world CRDs as kube-apiserver runs them: for each project of the corpus whose
// CRDs carry rules, its CRDs install, and objects that each break exactly one rule are refused with
// 422, that rule's message, at its field path, with its reason, and nothing else.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { startApi, type Api } from '../helpers.js';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CORPUS = join(projectRoot, '../shared/corpus');

interface Crd {
  metadata: { name: string };
  spec: { group: string; scope: string; names: { plural: string } };
}

function loadCrd(file: string): Crd {
  const path = join(CORPUS, file);
  if (!existsSync(path)) throw new Error(`corpus file ${path} is missing: the corpus must sit at <project root>/../shared/corpus`);
  const docs = parseAllDocuments(readFileSync(path, 'utf8')).map((d) => d.toJSON() as Crd & { kind?: string });
  const crd = docs.find((d) => d.kind === 'CustomResourceDefinition');
  if (crd === undefined) throw new Error(`${path} holds no CustomResourceDefinition`);
  return crd;
}

interface Cause {
  reason: string;
  field: string;
  message: string;
}

interface Case {
  /** What the object does wrong. */
  name: string;
  /** The CRD's file under the corpus. */
  crd: string;
  version: string;
  kind: string;
  spec: Record<string, unknown>;
  /** For a transition rule: the spec the object is created with, before `spec` replaces it. */
  before?: Record<string, unknown>;
  expected: Cause;
}

const invalid = (field: string, type: string, message: string): Cause => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: "${type}": ${message}`,
});

const PROJECTS: Record<string, Case[]> = {
  crossplane: [
    {
      name: 'a v2 composite resource definition offering claims',
      crd: 'crds/crossplane/cluster_crds_apiextensions.crossplane.io_compositeresourcedefinitions.yaml',
      version: 'v2',
      kind: 'CompositeResourceDefinition',
      spec: {
        group: 'example.org',
        names: { kind: 'XDatabase', plural: 'xdatabases' },
        claimNames: { kind: 'Database', plural: 'databases' },
        versions: [{ name: 'v1', served: true, referenceable: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      },
      expected: invalid('spec', 'object', "Claims aren't supported in apiextensions.crossplane.io/v2"),
    },
    {
      name: 'a composite resource definition with an upper-case plural',
      crd: 'crds/crossplane/cluster_crds_apiextensions.crossplane.io_compositeresourcedefinitions.yaml',
      version: 'v2',
      kind: 'CompositeResourceDefinition',
      spec: {
        group: 'example.org',
        names: { kind: 'XDatabase', plural: 'XDatabases' },
        versions: [{ name: 'v1', served: true, referenceable: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      },
      expected: invalid('spec.names', 'object', 'Plural name must be lowercase'),
    },
    {
      name: 'a composite resource definition that changes its group',
      crd: 'crds/crossplane/cluster_crds_apiextensions.crossplane.io_compositeresourcedefinitions.yaml',
      version: 'v2',
      kind: 'CompositeResourceDefinition',
      before: {
        group: 'example.org',
        names: { kind: 'XCache', plural: 'xcaches' },
        versions: [{ name: 'v1', served: true, referenceable: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      },
      spec: {
        group: 'example.com',
        names: { kind: 'XCache', plural: 'xcaches' },
        versions: [{ name: 'v1', served: true, referenceable: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      },
      expected: invalid('spec.group', 'string', 'Value is immutable'),
    },
    {
      name: 'a Pipeline composition without its pipeline',
      crd: 'crds/crossplane/cluster_crds_apiextensions.crossplane.io_compositions.yaml',
      version: 'v1',
      kind: 'Composition',
      spec: { compositeTypeRef: { apiVersion: 'example.org/v1', kind: 'XDatabase' }, mode: 'Pipeline' },
      expected: invalid('spec', 'object', 'an array of pipeline steps is required in Pipeline mode'),
    },
  ],
  'external-secrets': [
    {
      name: 'a push target without a store reference',
      crd: 'crds/external-secrets/config_crds_bases_external-secrets.io_pushsecrets.yaml',
      version: 'v1alpha1',
      kind: 'PushSecret',
      spec: { selector: { secret: { name: 'source' } }, secretStoreRefs: [{ name: 'store' }], data: [], dataTo: [{}] },
      expected: invalid('spec.dataTo[0]', 'object', 'storeRef must specify either name or labelSelector'),
    },
    {
      name: 'a rewrite with both a regexp and a transform',
      crd: 'crds/external-secrets/config_crds_bases_external-secrets.io_pushsecrets.yaml',
      version: 'v1alpha1',
      kind: 'PushSecret',
      spec: {
        selector: { secret: { name: 'source' } },
        secretStoreRefs: [{ name: 'store' }],
        dataTo: [
          {
            storeRef: { name: 'store' },
            rewrite: [{ regexp: { source: 'a', target: 'b' }, transform: { template: '{{ .value }}' } }],
          },
        ],
      },
      expected: invalid('spec.dataTo[0].rewrite[0]', 'object', 'exactly one of regexp or transform must be set'),
    },
    {
      name: 'a GitLab deploy token generator naming both a project and a group',
      crd: 'crds/external-secrets/config_crds_bases_generators.external-secrets.io_gitlabdeploytokens.yaml',
      version: 'v1alpha1',
      kind: 'GitlabDeployToken',
      spec: {
        name: 'deploy',
        projectID: '1',
        groupID: '2',
        scopes: ['read_registry'],
        auth: { token: { secretRef: { name: 'gitlab', key: 'token' } } },
      },
      expected: invalid('spec', 'object', 'exactly one of projectID or groupID must be set'),
    },
  ],
  'cluster-api': [
    {
      name: 'a drain rule listing one machine selector twice',
      crd: 'crds/cluster-api/core_config_crd_bases_cluster.x-k8s.io_machinedrainrules.yaml',
      version: 'v1beta2',
      kind: 'MachineDrainRule',
      spec: {
        drain: { behavior: 'Skip' },
        machines: [{ selector: { matchLabels: { role: 'worker' } } }, { selector: { matchLabels: { role: 'worker' } } }],
      },
      expected: invalid('spec.machines', 'array', 'entries in machines must be unique'),
    },
  ],
  'gateway-api': [
    {
      name: 'a gateway class that changes its controller',
      crd: 'gateway-api/gatewayclasses.yaml',
      version: 'v1',
      kind: 'GatewayClass',
      before: { controllerName: 'example.com/gateway-controller' },
      spec: { controllerName: 'example.com/other-controller' },
      expected: invalid('spec.controllerName', 'string', 'field is immutable'),
    },
    {
      name: 'a gateway with one IP address twice',
      crd: 'gateway-api/gateways.yaml',
      version: 'v1',
      kind: 'Gateway',
      spec: {
        gatewayClassName: 'example',
        listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }],
        addresses: [
          { type: 'IPAddress', value: '10.0.0.1' },
          { type: 'IPAddress', value: '10.0.0.1' },
        ],
      },
      expected: invalid('spec.addresses', 'array', 'IPAddress values must be unique'),
    },
  ],
  'cert-manager': [
    {
      name: 'a Venafi issuer configured for both TPP and Cloud',
      crd: 'crds/cert-manager/deploy_crds_cert-manager.io_issuers.yaml',
      version: 'v1',
      kind: 'Issuer',
      spec: {
        venafi: {
          zone: 'devops',
          tpp: { url: 'https://tpp.example.com/vedsdk', credentialsRef: { name: 'tpp-credentials' } },
          cloud: { apiTokenSecretRef: { name: 'cloud-token', key: 'api-key' } },
        },
      },
      expected: invalid('spec.venafi', 'object', 'exactly one of tpp, cloud, or ngts must be configured'),
    },
    {
      name: 'a Venafi cluster issuer with a zone and no platform',
      crd: 'crds/cert-manager/deploy_crds_cert-manager.io_clusterissuers.yaml',
      version: 'v1',
      kind: 'ClusterIssuer',
      spec: { venafi: { zone: 'devops' } },
      expected: invalid('spec.venafi', 'object', 'exactly one of tpp, cloud, or ngts must be configured'),
    },
  ],
  'prometheus-operator': [
    {
      name: 'a DaemonSet Prometheus agent with replicas',
      crd: 'crds/prometheus-operator/example_prometheus-operator-crd-full_monitoring.coreos.com_prometheusagents.yaml',
      version: 'v1alpha1',
      kind: 'PrometheusAgent',
      spec: { mode: 'DaemonSet', replicas: 2 },
      expected: invalid('spec', 'object', 'replicas cannot be set when mode is DaemonSet'),
    },
    {
      name: 'a scrape config with both basic auth and an authorization header',
      crd: 'crds/prometheus-operator/example_prometheus-operator-crd-full_monitoring.coreos.com_scrapeconfigs.yaml',
      version: 'v1alpha1',
      kind: 'ScrapeConfig',
      spec: {
        basicAuth: { username: { name: 'auth', key: 'user' }, password: { name: 'auth', key: 'password' } },
        authorization: { type: 'Bearer', credentials: { name: 'auth', key: 'token' } },
      },
      expected: invalid('spec', 'object', 'at most one of basicAuth, authorization, or oauth2 can be configured'),
    },
    {
      name: 'an SNS receiver whose SigV4 names an external ID without a role',
      crd: 'crds/prometheus-operator/example_prometheus-operator-crd-full_monitoring.coreos.com_alertmanagerconfigs.yaml',
      version: 'v1alpha1',
      kind: 'AlertmanagerConfig',
      spec: {
        receivers: [
          {
            name: 'sns',
            snsConfigs: [{ topicARN: 'arn:aws:sns:eu-west-1:123456789012:alerts', sigv4: { region: 'eu-west-1', externalId: 'ext' } }],
          },
        ],
      },
      expected: invalid('spec.receivers[0].snsConfigs[0].sigv4', 'object', 'externalId can only be used when roleArn is specified'),
    },
  ],
};

function pathOf(crd: Crd, version: string, name?: string): string {
  const ns = crd.spec.scope === 'Namespaced' ? '/namespaces/default' : '';
  return `/apis/${crd.spec.group}/${version}${ns}/${crd.spec.names.plural}${name === undefined ? '' : `/${name}`}`;
}

for (const [project, cases] of Object.entries(PROJECTS)) {
  describe(`${project} CEL rules, as kube-apiserver runs them`, () => {
    let api: Api;
    before(async () => {
      api = await startApi();
      for (const file of new Set(cases.map((c) => c.crd))) {
        const r = await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', loadCrd(file));
        assert.equal(r.status, 201, `${file}: ${r.text}`);
      }
    });
    after(() => api[Symbol.asyncDispose]());

    cases.forEach((c, i) => {
      it(`refuses ${c.name}`, async () => {
        const crd = loadCrd(c.crd);
        const name = `broken-${i}`;
        const object = (spec: Record<string, unknown>) => ({
          apiVersion: `${crd.spec.group}/${c.version}`,
          kind: c.kind,
          metadata: { name },
          spec,
        });
        let r;
        if (c.before === undefined) r = await api.call('POST', pathOf(crd, c.version), object(c.spec));
        else {
          const created = await api.call('POST', pathOf(crd, c.version), object(c.before));
          assert.equal(created.status, 201, created.text);
          const updated = { ...object(c.spec), metadata: created.body.metadata };
          r = await api.call('PUT', pathOf(crd, c.version, name), updated);
        }
        assert.equal(r.status, 422, r.text);
        assert.equal(r.body.reason, 'Invalid');
        assert.deepEqual(r.body.details.causes, [c.expected]);
      });
    });
  });
}
