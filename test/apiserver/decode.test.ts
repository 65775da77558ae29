import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApi } from './helpers.js';

// Typed fields of built-in kinds with the wrong JSON kind are refused with 400 before any defaulting,
// as the real server's decoder refuses them, whichever verb carries them; the server never answers 500.
describe('typed fields of built-in kinds', () => {
  const deployment = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
  };
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } };

  it('answers 400 naming the field for a create with a wrong-kind field', async () => {
    await using api = await startApi();
    const cases: [string, unknown][] = [
      ['/api/v1/namespaces/default/services', { ...service, spec: { ports: 1 } }],
      ['/api/v1/namespaces/default/services', { ...service, spec: { ports: [null] } }],
      ['/api/v1/namespaces/default/services', { ...service, spec: { ports: ['x'] } }],
      ['/apis/apps/v1/namespaces/default/deployments', { ...deployment, spec: { ...deployment.spec, template: { metadata: 'x', spec: {} } } }],
      ['/apis/apps/v1/namespaces/default/deployments', { ...deployment, spec: { ...deployment.spec, template: true } }],
      ['/apis/apps/v1/namespaces/default/deployments', { ...deployment, spec: { ...deployment.spec, strategy: 3 } }],
      ['/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: true } }],
      ['/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }], volumes: [[{ name: 'v' }]] } }],
    ];
    for (const [path, body] of cases) {
      const r = await api.call('POST', path, body);
      assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.reason, 'BadRequest');
      assert.match(r.body.message, /unable to decode the object: \w+\.spec\.\S+ must be an (array|object)/);
    }
  });

  it('answers 400 for updates and patches that would leave a wrong-kind field, and keeps the stored object', async () => {
    await using api = await startApi();
    const created = await api.call('POST', '/api/v1/namespaces/default/services', service);
    assert.equal(created.status, 201);
    const path = '/api/v1/namespaces/default/services/s';
    const put = await api.call('PUT', path, { ...created.body, spec: { ...created.body.spec, ports: 1.5 } });
    assert.equal(put.status, 400, put.text);
    const merge = await api.call('PATCH', path, { spec: { ports: [1] } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(merge.status, 400, merge.text);
    const strategic = await api.call('PATCH', path, { spec: { ports: [null] } }, { 'content-type': 'application/strategic-merge-patch+json' });
    assert.ok(strategic.status === 400 || strategic.status === 422, strategic.text);
    const got = await api.call('GET', path);
    assert.equal(got.body.metadata.resourceVersion, created.body.metadata.resourceVersion);
    assert.deepEqual(got.body.spec.ports, created.body.spec.ports);
  });

  it('accepts null for a typed field, as Go decodes null into an absent value', async () => {
    await using api = await startApi();
    const r = await api.call('POST', '/apis/apps/v1/namespaces/default/deployments', { ...deployment, spec: { ...deployment.spec, strategy: null } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.strategy.type, 'RollingUpdate');
  });
});

describe('CustomResourceDefinition bodies the server cannot follow', () => {
  const crd = (version: Record<string, unknown>) => ({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.ex.com' },
    spec: { group: 'ex.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, ...version }] },
  });
  const schema = (properties: unknown) => ({ schema: { openAPIV3Schema: { type: 'object', properties } } });

  it('refuses a schema node that is not an object with 422 naming it, instead of failing inside', async () => {
    await using api = await startApi();
    const r = await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(schema({ spec: null })));
    assert.equal(r.status, 422, r.text);
    assert.ok(r.body.details.causes.some((c: { field: string }) => c.field === 'spec.versions[0].schema.openAPIV3Schema.properties[spec]'), r.text);
  });

  it('refuses printer columns without a usable jsonPath, so Table reads of the kind keep working', async () => {
    await using api = await startApi();
    const bad = await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd({
      ...schema({ spec: { type: 'object' } }),
      additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: 'x' }, { name: 'B', type: 'string' }],
    }));
    assert.equal(bad.status, 422, bad.text);
    const fields = bad.body.details.causes.map((c: { field: string }) => c.field);
    assert.deepEqual(fields, ['spec.versions[0].additionalPrinterColumns[0].jsonPath', 'spec.versions[0].additionalPrinterColumns[1].jsonPath']);
    const notList = await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd({ ...schema({}), additionalPrinterColumns: 3 }));
    assert.equal(notList.status, 400, notList.text);
  });
});
