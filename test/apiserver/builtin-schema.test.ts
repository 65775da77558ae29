// Imports the private openapi/ face for the component names the server publishes.
// The built-in kinds' schemas, through an in-process server: /openapi/v3 publishes Kubernetes' own
// component for every built-in kind served, with nothing left dangling, and field validation
// (Strict / Warn / Ignore) treats a built-in's unknown fields as kube-apiserver's strict decoder does.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { componentName } from '../../src/apiserver/openapi/index.js';
import { handleJson } from './helpers.js';
import { specCrd } from './fixtures/spec-crd.js';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

const deployment = (name: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx', ...container }] } },
    ...spec,
  },
});

async function withServer(body: (s: ApiServer) => Promise<void>): Promise<void> {
  const s = createApiServer();
  try {
    await body(s);
  } finally {
    s.stop();
  }
}

type Doc = { paths: Record<string, unknown>; components: { schemas: Record<string, Record<string, unknown>> } };

describe('built-in kinds in /openapi/v3', () => {
  it('publishes Kubernetes’ component, with its descriptions, for every built-in kind each document’s paths reference', async () => {
    await withServer(async (s) => {
      const index = (await handleJson(s, 'GET', '/openapi/v3')).body as { paths: Record<string, { serverRelativeURL: string }> };
      const discovery = (await handleJson(s, 'GET', '/apis/apps/v1')).body as { resources: { kind: string; name: string }[] };
      assert.ok(discovery.resources.some((r) => r.kind === 'Deployment'));
      for (const [key, { serverRelativeURL }] of Object.entries(index.paths)) {
        const doc = (await handleJson(s, 'GET', serverRelativeURL.split('?')[0]!)).body as Doc;
        const text = JSON.stringify(doc);
        for (const [, ref] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
          assert.ok(doc.components.schemas[ref!], `${key} references ${ref} but does not define it`);
        }
        for (const [name, s] of Object.entries(doc.components.schemas)) {
          if (s['x-kubernetes-group-version-kind'] !== undefined) {
            assert.doesNotMatch(String(s['description']), /without a published field schema/, `${name} has Kubernetes' schema`);
          }
          for (const gvk of (s['x-kubernetes-group-version-kind'] ?? []) as { group: string; version: string; kind: string }[]) {
            if (gvk.kind.endsWith('List') || !doc.components.schemas[componentName(gvk)]) continue;
            assert.equal(doc.components.schemas[componentName(gvk)], s, `${componentName(gvk)} is the component of ${gvk.kind}`);
          }
        }
      }
      const apps = (await handleJson(s, 'GET', '/openapi/v3/apis/apps/v1')).body as Doc;
      const spec = apps.components.schemas['io.k8s.api.apps.v1.DeploymentSpec']!;
      const replicas = (spec['properties'] as Record<string, { description: string; type: string }>)['replicas']!;
      assert.equal(replicas.type, 'integer');
      assert.match(replicas.description, /^Number of desired pods\./);
      assert.ok(apps.components.schemas['io.k8s.api.core.v1.Container'], 'the pod template’s container schema comes along');
      const rbac = (await handleJson(s, 'GET', '/openapi/v3/apis/rbac.authorization.k8s.io/v1')).body as Doc;
      assert.ok(rbac.components.schemas['io.k8s.api.rbac.v1.ClusterRole']?.['x-kubernetes-group-version-kind']);
    });
  });
});

describe('field validation of built-in kinds', () => {
  it('refuses unknown fields under Strict with kube-apiserver’s message, naming each in the order of the body with list indexes', async () => {
    await withServer(async (s) => {
      const body = deployment('strict', { replica: 3, paused: false, foo: 1 }, { imagePullPolcy: 'Always' });
      const r = await handleJson(s, 'POST', `${DEPLOYMENTS}?fieldValidation=Strict`, body);
      assert.equal(r.status, 400);
      assert.equal(r.body.reason, 'BadRequest');
      assert.equal(
        r.body.message,
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolcy", unknown field "spec.replica", unknown field "spec.foo"',
      );
      assert.equal((await handleJson(s, 'GET', `${DEPLOYMENTS}/strict`)).status, 404);
    });
  });

  it('refuses an unknown field in metadata and on an update, too', async () => {
    await withServer(async (s) => {
      const bad = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default', labelz: {} }, data: { a: 'b' } };
      const r = await handleJson(s, 'POST', '/api/v1/namespaces/default/configmaps?fieldValidation=Strict', bad);
      assert.equal(
        r.body.message,
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.labelz"',
      );
      assert.equal((await handleJson(s, 'POST', `${DEPLOYMENTS}?fieldValidation=Strict`, deployment('web'))).status, 201);
      const put = await handleJson(s, 'PUT', `${DEPLOYMENTS}/web?fieldValidation=Strict`, deployment('web', { replica: 2 }));
      assert.equal(put.status, 400);
      assert.match(put.body.message, /strict decoding error: unknown field "spec\.replica"$/);
    });
  });

  it('accepts unknown fields under Warn with one Warning header each, and stores the object without them', async () => {
    await withServer(async (s) => {
      const r = await s.handle({
        method: 'POST',
        path: `${DEPLOYMENTS}?fieldValidation=Warn`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(deployment('warned', { replica: 3 }, { imagePullPolcy: 'Always' })),
      });
      assert.equal(r.status, 201);
      assert.deepEqual(r.headers['warning'], [
        '299 - "unknown field \\"spec.template.spec.containers[0].imagePullPolcy\\""',
        '299 - "unknown field \\"spec.replica\\""',
      ]);
      const stored = (await handleJson(s, 'GET', `${DEPLOYMENTS}/warned`)).body;
      assert.equal(stored.spec.replica, undefined);
      assert.equal(stored.spec.template.spec.containers[0].imagePullPolcy, undefined);
    });
  });

  it('accepts unknown fields under Ignore without a warning', async () => {
    await withServer(async (s) => {
      const r = await s.handle({
        method: 'POST',
        path: `${DEPLOYMENTS}?fieldValidation=Ignore`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(deployment('ignored', { replica: 3 })),
      });
      assert.equal(r.status, 201);
      assert.equal(r.headers['warning'], undefined);
    });
  });

  it('accepts anything where the schema declares no fields (a CRD’s JSON default) or preserves unknown fields', async () => {
    await withServer(async (s) => {
      const crd = specCrd('Widget', 'widgets', {
        'x-kubernetes-preserve-unknown-fields': true,
        default: { size: 1, anything: { nested: true } },
        example: { free: ['form'] },
      });
      const r = await handleJson(s, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldValidation=Strict', crd);
      assert.equal(r.status, 201, r.text);
    });
  });

  it('accepts a CRD read back with its status under Strict, since its conditions carry observedGeneration as since 1.36', async () => {
    await withServer(async (s) => {
      const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
      assert.equal((await handleJson(s, 'POST', crds, specCrd('Widget', 'widgets', { type: 'object' }))).status, 201);
      const stored = (await handleJson(s, 'GET', `${crds}/widgets.example.com`)).body as {
        status: { conditions: { observedGeneration?: number }[] };
      };
      assert.ok(stored.status.conditions.every((c) => c.observedGeneration === 1));
      const r = await handleJson(s, 'PUT', `${crds}/widgets.example.com?fieldValidation=Strict`, stored);
      assert.equal(r.status, 200, r.text);
    });
  });
});
