// apiregistration.k8s.io/v1 APIServices: the built-in group-versions registered as Local and Available,
// discovery, Table columns as kubectl shows them, and the AlreadyExists body the Python client's own
// end-to-end suite compares byte for byte.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer } from 'kube-converge/apiserver';
import { FakeClock } from 'kube-converge/meta';
import { handleJson } from './helpers.js';

const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';
const T0 = Date.parse('2026-01-01T00:00:00Z');

const wardle = {
  apiVersion: 'apiregistration.k8s.io/v1',
  kind: 'APIService',
  metadata: { name: 'v1alpha1.wardle.k8s.io' },
  spec: {
    insecureSkipTLSVerify: true,
    group: 'wardle.k8s.io',
    groupPriorityMinimum: 1000,
    versionPriority: 15,
    service: { name: 'api', namespace: 'wardle' },
    version: 'v1alpha1',
  },
};

describe('APIServices', () => {
  it('registers every built-in group-version as a Local APIService that is Available', async () => {
    const s = createApiServer({ clock: new FakeClock(T0) });
    const list = await handleJson(s, 'GET', APISERVICES);
    assert.equal(list.status, 200);
    const names = list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    for (const n of ['v1.', 'v1.apps', 'v1.batch', 'v1.rbac.authorization.k8s.io', 'v1.apiregistration.k8s.io'])
      assert.ok(names.includes(n), n);
    const core = await handleJson(s, 'GET', `${APISERVICES}/v1.`);
    assert.deepEqual(core.body.spec, { group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 });
    assert.deepEqual(core.body.status.conditions, [
      {
        type: 'Available',
        status: 'True',
        lastTransitionTime: '2026-01-01T00:00:00Z',
        reason: 'Local',
        message: 'Local APIServices are always available',
      },
    ]);
    s.stop();
  });

  it('is discovered as a cluster-scoped resource with a status subresource, its group listed first after core', async () => {
    const s = createApiServer();
    const rl = await handleJson(s, 'GET', '/apis/apiregistration.k8s.io/v1');
    assert.deepEqual(
      rl.body.resources.map((r: { name: string; namespaced: boolean; kind: string }) => [r.name, r.namespaced, r.kind]),
      [
        ['apiservices', false, 'APIService'],
        ['apiservices/status', false, 'APIService'],
      ],
    );
    const groups = await handleJson(s, 'GET', '/apis');
    assert.equal(groups.body.groups[0].name, 'apiregistration.k8s.io');
    s.stop();
  });

  it('creates one that names a service, and answers the second create with the AlreadyExists body byte for byte', async () => {
    const s = createApiServer();
    const first = await handleJson(s, 'POST', APISERVICES, wardle);
    assert.equal(first.status, 201);
    assert.equal(first.body.status, undefined, 'nothing here proxies to the service, so no availability is claimed');
    const again = await handleJson(s, 'POST', APISERVICES, wardle);
    assert.equal(again.status, 409);
    assert.equal(
      again.text,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"apiservices.apiregistration.k8s.io \\"v1alpha1.wardle.k8s.io\\" already exists","reason":"AlreadyExists","details":{"name":"v1alpha1.wardle.k8s.io","group":"apiregistration.k8s.io","kind":"apiservices"},"code":409}\n',
    );
    s.stop();
  });

  it('prints NAME, SERVICE, AVAILABLE and AGE as kubectl get apiservices shows them', async () => {
    const clock = new FakeClock(T0);
    const s = createApiServer({ clock });
    await handleJson(s, 'POST', APISERVICES, wardle);
    await clock.advance(90_000);
    const r = await s.handle({
      method: 'GET',
      path: APISERVICES,
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    const t = JSON.parse(r.body);
    assert.deepEqual(
      t.columnDefinitions.map((c: { name: string }) => c.name),
      ['Name', 'Service', 'Available', 'Age'],
    );
    const rows = new Map(t.rows.map((row: { cells: string[] }) => [row.cells[0], row.cells]));
    assert.deepEqual(rows.get('v1.apps'), ['v1.apps', 'Local', 'True', '90s']);
    assert.deepEqual(rows.get('v1alpha1.wardle.k8s.io'), ['v1alpha1.wardle.k8s.io', 'wardle/api', 'Unknown', '90s']);
    s.stop();
  });
});
