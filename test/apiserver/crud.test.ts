// The basic verbs on ConfigMaps and Namespaces over HTTP: create, get, list, update, delete, and their Status errors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, cm } from './helpers.js';

const CMS = '/api/v1/namespaces/default/configmaps';

describe('ConfigMap and Namespace CRUD over HTTP', () => {
  it('creates a ConfigMap with uid, creationTimestamp, resourceVersion and an Update managedFields entry', async () => {
    await using api = await startApi();
    const r = await api.call('POST', CMS + '?fieldManager=tester', cm('a', { k: 'v' }));
    assert.equal(r.status, 201);
    const m = r.body.metadata;
    assert.match(m.uid, /^[0-9a-f-]{36}$/);
    assert.match(m.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(m.resourceVersion, /^[1-9]\d*$/);
    assert.equal(m.namespace, 'default');
    assert.equal(m.generation, undefined);
    assert.equal(m.managedFields[0].manager, 'tester');
    assert.equal(m.managedFields[0].operation, 'Update');
    assert.deepEqual(m.managedFields[0].fieldsV1, { 'f:data': { 'f:k': {} } });
    const g = await api.call('GET', `${CMS}/a`);
    assert.equal(g.status, 200);
    assert.deepEqual(g.body, r.body);
  });

  it('assigns strictly increasing resourceVersions across kinds', async () => {
    await using api = await startApi();
    const a = await api.call('POST', CMS, cm('a'));
    const ns = await api.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } });
    const b = await api.call('POST', CMS, cm('b'));
    const rvs = [a, ns, b].map((r) => Number(r.body.metadata.resourceVersion));
    assert.ok(rvs[0]! < rvs[1]! && rvs[1]! < rvs[2]!, `not increasing: ${rvs}`);
  });

  it('answers 409 AlreadyExists with the real message and details', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a'));
    const r = await api.call('POST', CMS, cm('a'));
    assert.equal(r.status, 409);
    assert.equal(r.body.reason, 'AlreadyExists');
    assert.equal(r.body.message, 'configmaps "a" already exists');
    assert.deepEqual(r.body.details, { name: 'a', kind: 'configmaps' });
  });

  it('answers 404 NotFound for a missing object and for a missing namespace', async () => {
    await using api = await startApi();
    const r = await api.call('GET', `${CMS}/nope`);
    assert.equal(r.status, 404);
    assert.equal(r.body.kind, 'Status');
    assert.equal(r.body.message, 'configmaps "nope" not found');
    const c = await api.call('POST', '/api/v1/namespaces/ghost/configmaps', cm('a'));
    assert.equal(c.status, 404);
    assert.equal(c.body.message, 'namespaces "ghost" not found');
  });

  it('generates names from generateName', async () => {
    await using api = await startApi();
    const r = await api.call('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } });
    assert.equal(r.status, 201);
    assert.match(r.body.metadata.name, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('rejects invalid names and labels with 422 Invalid naming each field', async () => {
    await using api = await startApi();
    const r = await api.call('POST', CMS, cm('Bad_Name', {}, { labels: { 'a/b/c': 'x', ok: 'not valid!' } }));
    assert.equal(r.status, 422);
    assert.equal(r.body.reason, 'Invalid');
    assert.equal(r.body.details.kind, 'ConfigMap');
    const fields = r.body.details.causes.map((c: { field: string }) => c.field);
    assert.ok(fields.includes('metadata.name'));
    assert.ok(fields.includes('metadata.labels'));
    assert.match(
      r.body.message,
      /^ConfigMap "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
    );
    const none = await api.call('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} });
    assert.equal(none.status, 422);
    assert.equal(none.body.details.causes[0].reason, 'FieldValueRequired');
    assert.equal(none.body.details.causes[0].message, 'Required value: name or generateName is required');
  });

  it('rejects a body whose namespace, apiVersion or name does not match the URL with 400', async () => {
    await using api = await startApi();
    const ns = await api.call('POST', CMS, cm('a', {}, { namespace: 'other' }));
    assert.equal(ns.status, 400);
    assert.equal(ns.body.message, 'the namespace of the provided object does not match the namespace sent on the request');
    const av = await api.call('POST', CMS, { ...cm('a'), apiVersion: 'apps/v1' });
    assert.equal(av.status, 400);
    assert.equal(av.body.message, 'the API version in the data (apps/v1) does not match the expected API version (v1)');
    await api.call('POST', CMS, cm('a'));
    const put = await api.call('PUT', `${CMS}/a`, cm('b'));
    assert.equal(put.status, 400);
    assert.equal(put.body.message, 'the name of the object (b) does not match the name on the URL (a)');
  });

  it('updates with optimistic concurrency: stale resourceVersion → 409 Conflict, empty → unconditional', async () => {
    await using api = await startApi();
    const a = (await api.call('POST', CMS, cm('a', { k: '1' }))).body;
    const u1 = await api.call('PUT', `${CMS}/a`, { ...a, data: { k: '2' } });
    assert.equal(u1.status, 200);
    assert.ok(Number(u1.body.metadata.resourceVersion) > Number(a.metadata.resourceVersion));
    const stale = await api.call('PUT', `${CMS}/a`, { ...a, data: { k: '3' } });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.reason, 'Conflict');
    assert.equal(
      stale.body.message,
      'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
    );
    const { resourceVersion: _, ...meta } = a.metadata;
    const uncond = await api.call('PUT', `${CMS}/a`, { ...a, metadata: meta, data: { k: '4' } });
    assert.equal(uncond.status, 200);
    assert.equal(uncond.body.data.k, '4');
  });

  it('keeps the resourceVersion and emits no event for a no-op update', async () => {
    await using api = await startApi();
    const a = (await api.call('POST', CMS, cm('a', { k: '1' }))).body;
    const w = await api.watch(`${CMS}?watch=true&resourceVersion=${a.metadata.resourceVersion}`);
    const same = await api.call('PUT', `${CMS}/a`, a);
    assert.equal(same.status, 200);
    assert.equal(same.body.metadata.resourceVersion, a.metadata.resourceVersion);
    const changed = await api.call('PUT', `${CMS}/a`, { ...a, data: { k: '2' } });
    const ev = await w.next();
    assert.equal(ev?.type, 'MODIFIED');
    assert.equal(ev?.object.metadata.resourceVersion, changed.body.metadata.resourceVersion);
  });

  it('rejects data changes of an immutable ConfigMap with 422', async () => {
    await using api = await startApi();
    const a = (await api.call('POST', CMS, { ...cm('a', { k: '1' }), immutable: true })).body;
    const r = await api.call('PUT', `${CMS}/a`, { ...a, data: { k: '2' } });
    assert.equal(r.status, 422);
    assert.equal(r.body.details.causes[0].field, 'data');
  });

  it('deletes a ConfigMap with a Success Status carrying its uid', async () => {
    await using api = await startApi();
    const a = (await api.call('POST', CMS, cm('a'))).body;
    const d = await api.call('DELETE', `${CMS}/a`);
    assert.equal(d.status, 200);
    assert.equal(d.body.kind, 'Status');
    assert.equal(d.body.status, 'Success');
    assert.deepEqual(d.body.details, { name: 'a', kind: 'configmaps', uid: a.metadata.uid });
    assert.equal((await api.call('GET', `${CMS}/a`)).status, 404);
    assert.equal((await api.call('DELETE', `${CMS}/a`)).status, 404);
  });

  it('lists all namespaces, one namespace, and sorts by namespace/name', async () => {
    await using api = await startApi();
    await api.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'aaa' } });
    await api.call('POST', CMS, cm('z'));
    await api.call('POST', CMS, cm('b'));
    await api.call('POST', '/api/v1/namespaces/aaa/configmaps', cm('y'));
    const all = await api.call('GET', '/api/v1/configmaps');
    assert.equal(all.body.kind, 'ConfigMapList');
    assert.equal(all.body.apiVersion, 'v1');
    assert.deepEqual(
      all.body.items.map((i: { metadata: { namespace: string; name: string } }) => `${i.metadata.namespace}/${i.metadata.name}`),
      ['aaa/y', 'default/b', 'default/z'],
    );
    const one = await api.call('GET', CMS);
    assert.deepEqual(
      one.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ['b', 'z'],
    );
  });

  it('reports the current revision as the list resourceVersion, even above every item', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a'));
    const ns = await api.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'later' } });
    const l = await api.call('GET', CMS);
    assert.equal(l.body.metadata.resourceVersion, ns.body.metadata.resourceVersion);
  });

  it('has default, kube-system and kube-public at start, with the name label and Active phase', async () => {
    await using api = await startApi();
    for (const n of ['default', 'kube-system', 'kube-public']) {
      const r = await api.call('GET', `/api/v1/namespaces/${n}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.metadata.labels['kubernetes.io/metadata.name'], n);
      assert.equal(r.body.status.phase, 'Active');
      assert.deepEqual(r.body.spec.finalizers, ['kubernetes']);
    }
  });

  it('answers plain-text 404 for unknown paths and 405 for wrong methods', async () => {
    await using api = await startApi();
    const r = await api.call('GET', '/api/v1/widgets');
    assert.equal(r.status, 404);
    assert.equal(r.text, '404 page not found\n');
    const p = await api.call('POST', `${CMS}/a`, cm('a'));
    assert.equal(p.status, 405);
    assert.equal(p.body.reason, 'MethodNotAllowed');
  });
});
