// A PUT whose body carries a metadata.uid only applies to the object with that uid: another uid is a
// 409 Conflict with the real server's precondition message, and nothing is written.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { handleJson as call } from './helpers.js';

const CM = '/api/v1/namespaces/default/configmaps';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';
const OTHER_UID = '00000000-0000-4000-8000-000000000000';

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        },
      },
    ],
  },
};

async function refusesOtherUid(s: ApiServer, path: string, resource: string, change: (o: Record<string, unknown>) => void): Promise<void> {
  const before = (await call(s, 'GET', path)).body;
  const sent = structuredClone(before);
  change(sent);
  sent.metadata.uid = OTHER_UID;
  const r = await call(s, 'PUT', path, sent);
  assert.equal(r.status, 409);
  assert.equal(r.body.reason, 'Conflict');
  assert.equal(
    r.body.message,
    `Operation cannot be fulfilled on ${resource} "${before.metadata.name}": Precondition failed: UID in precondition: ${OTHER_UID}, UID in object meta: ${before.metadata.uid}`,
  );
  assert.deepEqual((await call(s, 'GET', path)).body, before);
}

describe('PUT with a metadata.uid precondition', () => {
  it('refuses a built-in object sent with another uid with 409 Conflict and keeps the stored one', async () => {
    const s = createApiServer();
    assert.equal((await call(s, 'POST', CM, { metadata: { name: 'c' }, data: { a: '1' } })).status, 201);
    await refusesOtherUid(s, `${CM}/c`, 'configmaps', (o) => (o.data = { a: '2' }));
    s.stop();
  });

  it('refuses a custom resource sent with another uid, on the object and on its status subresource', async () => {
    const s = createApiServer();
    assert.equal((await call(s, 'POST', CRDS, widgetCrd)).status, 201);
    assert.equal(
      (await call(s, 'POST', WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { a: 1 } })).status,
      201,
    );
    await refusesOtherUid(s, `${WIDGETS}/w`, 'widgets.example.com', (o) => (o.spec = { a: 2 }));
    await refusesOtherUid(s, `${WIDGETS}/w/status`, 'widgets.example.com', (o) => (o.status = { ready: true }));
    s.stop();
  });

  it('refuses a built-in status subresource PUT sent with another uid', async () => {
    const s = createApiServer();
    await refusesOtherUid(s, '/api/v1/namespaces/default/status', 'namespaces', (o) => (o.status = { phase: 'Active' }));
    s.stop();
  });

  it('accepts the stored uid, or none, as before', async () => {
    const s = createApiServer();
    const c = (await call(s, 'POST', CM, { metadata: { name: 'c' }, data: { a: '1' } })).body;
    const same = await call(s, 'PUT', `${CM}/c`, { ...c, data: { a: '2' } });
    assert.equal(same.status, 200);
    const { uid: _uid, ...meta } = same.body.metadata;
    assert.equal((await call(s, 'PUT', `${CM}/c`, { ...same.body, metadata: meta, data: { a: '3' } })).status, 200);
    s.stop();
  });

  it('refuses a create-on-update (Lease) that names a uid, as no stored object has it', async () => {
    const s = createApiServer();
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l', uid: OTHER_UID },
      spec: { holderIdentity: 'me' },
    };
    const r = await call(s, 'PUT', '/apis/coordination.k8s.io/v1/namespaces/default/leases/l', lease);
    assert.equal(r.status, 409);
    assert.match(r.body.message, /Precondition failed: UID in precondition: 00000000-0000-4000-8000-000000000000, UID in object meta: $/);
    assert.equal((await call(s, 'GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/l')).status, 404);
    s.stop();
  });
});
