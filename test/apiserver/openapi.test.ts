// Imports the private openapi/ face: unit tests of the OpenAPI builders.
// The OpenAPI builders, unit-tested as pure functions of served resources: imported from the openapi
// folder's face, since the apiserver layer's index exports only what clients of the server need.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildOpenApiV3Document,
  buildOpenApiV3Index,
  openApiHash,
  componentName,
  buildOpenApiV2Protobuf,
  OPENAPI_V2_PROTOBUF_CONTENT_TYPE,
} from '../../src/apiserver/openapi/index.js';
import type { ServedResource } from 'kube-converge/apiserver';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

const webApp: ServedResource = {
  group: 'platform.converge.dev',
  version: 'v1alpha1',
  kind: 'WebApp',
  plural: 'webapps',
  singular: 'webapp',
  namespaced: true,
  shortNames: ['wa'],
  categories: [],
  verbs: VERBS,
  custom: true,
  subresources: [
    {
      name: 'status',
      responseKind: { group: 'platform.converge.dev', version: 'v1alpha1', kind: 'WebApp' },
      verbs: ['get', 'patch', 'update'],
    },
    { name: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
  ],
  schema: {
    type: 'object',
    properties: {
      spec: { type: 'object', description: 'Desired state.', properties: { replicas: { type: 'integer', description: 'How many pods.' } } },
      status: { type: 'object' },
    },
  },
};
const configMap: ServedResource = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  singular: 'configmap',
  namespaced: true,
  shortNames: ['cm'],
  categories: [],
  verbs: VERBS,
  subresources: [],
  custom: false,
};
const namespace: ServedResource = {
  ...configMap,
  kind: 'Namespace',
  plural: 'namespaces',
  singular: 'namespace',
  namespaced: false,
  shortNames: ['ns'],
};
const deployment: ServedResource = {
  ...configMap,
  group: 'apps',
  kind: 'Deployment',
  plural: 'deployments',
  singular: 'deployment',
  shortNames: ['deploy'],
};

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string }[];
        requestBody?: { content: Record<string, unknown> };
        'x-kubernetes-group-version-kind'?: unknown;
      }
    >
  >;
  components: { schemas: Record<string, Record<string, unknown>> };
};

describe('OpenAPI v3 documents', () => {
  it('indexes each group-version under api/v1 or apis/<group>/<version> with a content hash', () => {
    const index = buildOpenApiV3Index([webApp, configMap, namespace, deployment]);
    assert.deepEqual(Object.keys(index.paths), ['api/v1', 'apis/apps/v1', 'apis/platform.converge.dev/v1alpha1']);
    const hash = openApiHash(buildOpenApiV3Document('v1', [webApp, configMap, namespace, deployment]));
    assert.equal(index.paths['api/v1']?.serverRelativeURL, `/openapi/v3/api/v1?hash=${hash}`);
    assert.match(hash, /^[0-9A-F]{128}$/);
  });

  it('changes a document hash exactly when the document changes', () => {
    const before = buildOpenApiV3Index([webApp, configMap]);
    assert.deepEqual(buildOpenApiV3Index([configMap, webApp]), before);
    const changed = buildOpenApiV3Index([{ ...webApp, shortNames: [], verbs: ['get', 'list'] }, configMap]);
    assert.notEqual(
      changed.paths['apis/platform.converge.dev/v1alpha1']?.serverRelativeURL,
      before.paths['apis/platform.converge.dev/v1alpha1']?.serverRelativeURL,
    );
    assert.equal(changed.paths['api/v1']?.serverRelativeURL, before.paths['api/v1']?.serverRelativeURL);
  });

  it("declares fieldValidation on every PATCH operation with the kind it patches, as kubectl's verifier requires", () => {
    const doc = buildOpenApiV3Document('platform.converge.dev/v1alpha1', [webApp, configMap]) as Doc;
    const item = doc.paths['/apis/platform.converge.dev/v1alpha1/namespaces/{namespace}/webapps/{name}'];
    assert.ok(item?.['patch']);
    assert.deepEqual(item['patch']['x-kubernetes-group-version-kind'], {
      group: 'platform.converge.dev',
      kind: 'WebApp',
      version: 'v1alpha1',
    });
    const patches = Object.values(doc.paths).flatMap((p) => (p['patch'] ? [p['patch']] : []));
    assert.equal(patches.length, 3);
    for (const op of patches) assert.ok(op.parameters?.some((p) => p.name === 'fieldValidation' && p.in === 'query'));
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/apis/platform.converge.dev/v1alpha1/namespaces/{namespace}/webapps',
      '/apis/platform.converge.dev/v1alpha1/namespaces/{namespace}/webapps/{name}',
      '/apis/platform.converge.dev/v1alpha1/namespaces/{namespace}/webapps/{name}/scale',
      '/apis/platform.converge.dev/v1alpha1/namespaces/{namespace}/webapps/{name}/status',
      '/apis/platform.converge.dev/v1alpha1/webapps',
    ]);
  });

  it('does not offer strategic merge patch in PATCH request bodies, so kubectl apply uses its compiled-in merge keys', () => {
    const doc = buildOpenApiV3Document('apps/v1', [deployment]) as Doc;
    const content = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']?.['patch']?.requestBody?.content ?? {};
    assert.deepEqual(Object.keys(content), ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
  });

  it('publishes the CRD schema under its reversed-group name with the GVK extension and an ObjectMeta reference', () => {
    const doc = buildOpenApiV3Document('platform.converge.dev/v1alpha1', [webApp]) as Doc;
    const schema = doc.components.schemas['dev.converge.platform.v1alpha1.WebApp'];
    assert.ok(schema);
    assert.deepEqual(schema['x-kubernetes-group-version-kind'], [{ group: 'platform.converge.dev', kind: 'WebApp', version: 'v1alpha1' }]);
    const props = schema['properties'] as Record<string, Record<string, unknown>>;
    assert.deepEqual(props['metadata']?.['allOf'], [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
    assert.deepEqual(props['spec'], webApp.schema?.properties?.['spec']);
    assert.ok(doc.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    assert.ok(doc.components.schemas['dev.converge.platform.v1alpha1.WebAppList']);
    assert.deepEqual(doc.components.schemas['io.k8s.api.autoscaling.v1.Scale']?.['x-kubernetes-group-version-kind'], [
      { group: 'autoscaling', kind: 'Scale', version: 'v1' },
    ]);
  });

  it('gives built-ins Kubernetes’ schema, cluster-scoped kinds paths without a namespace, and upstream component names', () => {
    const doc = buildOpenApiV3Document('v1', [configMap, namespace]) as Doc;
    const schema = doc.components.schemas['io.k8s.api.core.v1.ConfigMap'];
    assert.match(
      String((schema?.['properties'] as Record<string, Record<string, unknown>>)['data']?.['description']),
      /configuration data/,
    );
    assert.ok(doc.paths['/api/v1/namespaces/{name}']);
    assert.ok(doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}']);
    assert.equal(componentName({ group: 'apps', version: 'v1', kind: 'Deployment' }), 'io.k8s.api.apps.v1.Deployment');
    assert.equal(componentName({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' }), 'io.k8s.api.coordination.v1.Lease');
    assert.equal(
      componentName({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' }),
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
    );
  });
});

describe('OpenAPI v3 documents of built-in kinds', () => {
  it('carry the list types, map keys and patch strategies kube-apiserver publishes', () => {
    const doc = buildOpenApiV3Document('apps/v1', [deployment]) as Doc;
    const props = (name: string) => doc.components.schemas[name]?.['properties'] as Record<string, Record<string, unknown>>;
    const ports = props('io.k8s.api.core.v1.Container')['ports']!;
    assert.deepEqual(ports['x-kubernetes-list-map-keys'], ['containerPort', 'protocol']);
    assert.equal(ports['x-kubernetes-patch-merge-key'], 'containerPort');
    assert.equal(props('io.k8s.api.core.v1.PodSpec')['containers']?.['x-kubernetes-patch-merge-key'], 'name');
    assert.equal(props('io.k8s.api.apps.v1.DeploymentSpec')['strategy']?.['x-kubernetes-patch-strategy'], 'retainKeys');
    assert.equal(doc.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector']?.['x-kubernetes-map-type'], 'atomic');
  });
});

describe('OpenAPI v2 document (protobuf)', () => {
  it('encodes swagger 2.0 with one PATCH operation per patchable kind carrying fieldValidation and the GVK extension', () => {
    const bytes = buildOpenApiV2Protobuf([webApp, configMap, { ...namespace, verbs: ['get', 'list'] }]);
    assert.deepEqual([...bytes.subarray(0, 5)], [0x0a, 0x03, 0x32, 0x2e, 0x30]);
    const text = Buffer.from(bytes).toString('latin1');
    assert.ok(text.includes('/apis/platform.converge.dev/v1alpha1/namespaces/{namespace}/webapps/{name}'));
    assert.ok(text.includes('/api/v1/namespaces/{namespace}/configmaps/{name}'));
    assert.ok(!text.includes('/api/v1/namespaces/{name}'));
    assert.ok(text.includes('fieldValidation'));
    assert.ok(text.includes('group: "platform.converge.dev"\nkind: WebApp\nversion: v1alpha1\n'));
    assert.doesNotMatch(OPENAPI_V2_PROTOBUF_CONTENT_TYPE, /@/);
  });
});
