// Write semantics: optimistic concurrency, generation and status rules, deletion and finalizers, Events through two
// groups, server-side apply, other built-in kinds and the POST-only subresources.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, cm } from './helpers.js';
import { specCrd } from './fixtures/spec-crd.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
const deployment = (name: string, replicas = 1) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
  },
});

describe('write semantics', () => {
  it('defaults a Deployment, sets generation 1 and resets status on create', async () => {
    await using api = await startApi();
    const r = await api.call('POST', DEPLOYS, { ...deployment('d'), status: { replicas: 9 } });
    assert.equal(r.status, 201);
    assert.equal(r.body.metadata.generation, 1);
    assert.deepEqual(r.body.status, {});
    assert.equal(r.body.spec.strategy.type, 'RollingUpdate');
    assert.equal(r.body.spec.revisionHistoryLimit, 10);
    assert.equal(r.body.spec.template.spec.containers[0].imagePullPolicy, 'IfNotPresent');
  });

  it('rejects a Deployment whose selector does not match its template labels with 422', async () => {
    await using api = await startApi();
    const d = deployment('d');
    d.spec.template.metadata.labels = { app: 'other' };
    const r = await api.call('POST', DEPLOYS, d);
    assert.equal(r.status, 422);
    assert.equal(r.body.details.causes[0].field, 'spec.template.metadata.labels');
  });

  it('bumps generation on spec and annotation changes but not on label changes', async () => {
    await using api = await startApi();
    const d = (await api.call('POST', DEPLOYS, deployment('d'))).body;
    const labels = (await api.call('PUT', `${DEPLOYS}/d`, { ...d, metadata: { ...d.metadata, labels: { a: 'b' } } })).body;
    assert.equal(labels.metadata.generation, 1);
    const spec = (await api.call('PUT', `${DEPLOYS}/d`, { ...labels, spec: { ...labels.spec, replicas: 3 } })).body;
    assert.equal(spec.metadata.generation, 2);
    const ann = (await api.call('PUT', `${DEPLOYS}/d`, { ...spec, metadata: { ...spec.metadata, annotations: { n: '1' } } })).body;
    assert.equal(ann.metadata.generation, 3);
  });

  it('ignores status on the main endpoint and everything but status on /status', async () => {
    await using api = await startApi();
    const d = (await api.call('POST', DEPLOYS, deployment('d'))).body;
    const main = (await api.call('PUT', `${DEPLOYS}/d`, { ...d, status: { replicas: 5 } })).body;
    assert.deepEqual(main.status, {});
    assert.equal(main.metadata.resourceVersion, d.metadata.resourceVersion, 'a status-only change on the main endpoint is a no-op');
    const st = (await api.call('PUT', `${DEPLOYS}/d/status`, { ...d, spec: { ...d.spec, replicas: 7 }, status: { replicas: 5 } })).body;
    assert.equal(st.status.replicas, 5);
    assert.equal(st.spec.replicas, 1);
    assert.equal(st.metadata.generation, 1);
  });

  it('serves the scale subresource and writes spec.replicas through it', async () => {
    await using api = await startApi();
    await api.call('POST', DEPLOYS, deployment('d', 2));
    const s = (await api.call('GET', `${DEPLOYS}/d/scale`)).body;
    assert.equal(s.kind, 'Scale');
    assert.equal(s.apiVersion, 'autoscaling/v1');
    assert.equal(s.spec.replicas, 2);
    assert.equal(s.status.selector, 'app=d');
    const put = await api.call('PUT', `${DEPLOYS}/d/scale`, { ...s, spec: { replicas: 4 } });
    assert.equal(put.status, 200);
    assert.equal(put.body.spec.replicas, 4);
    const p = await api.call('PATCH', `${DEPLOYS}/d/scale`, { spec: { replicas: 6 } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(p.body.spec.replicas, 6);
    const d = (await api.call('GET', `${DEPLOYS}/d`)).body;
    assert.equal(d.spec.replicas, 6);
    assert.equal(d.metadata.generation, 3);
  });

  it('applies JSON, merge and strategic merge patches; 415 for unknown types', async () => {
    await using api = await startApi();
    await api.call('POST', DEPLOYS, deployment('d'));
    const merge = await api.call(
      'PATCH',
      `${CMS.replace('configmaps', 'configmaps')}/x`,
      {},
      { 'content-type': 'application/merge-patch+json' },
    );
    assert.equal(merge.status, 404);
    const smp = await api.call(
      'PATCH',
      `${DEPLOYS}/d`,
      { spec: { template: { spec: { containers: [{ name: 'side', image: 'busybox' }] } } } },
      { 'content-type': 'application/strategic-merge-patch+json' },
    );
    assert.equal(smp.status, 200);
    assert.deepEqual(smp.body.spec.template.spec.containers.map((c: { name: string }) => c.name).sort(), ['c', 'side']);
    const jp = await api.call('PATCH', `${DEPLOYS}/d`, [{ op: 'replace', path: '/spec/replicas', value: 3 }], {
      'content-type': 'application/json-patch+json',
    });
    assert.equal(jp.body.spec.replicas, 3);
    const failed = await api.call('PATCH', `${DEPLOYS}/d`, [{ op: 'test', path: '/spec/replicas', value: 9 }], {
      'content-type': 'application/json-patch+json',
    });
    assert.equal(failed.status, 422);
    const bad = await api.call('PATCH', `${DEPLOYS}/d`, '{}', { 'content-type': 'text/plain' });
    assert.equal(bad.status, 415);
    assert.equal(bad.body.reason, 'UnsupportedMediaType');
  });

  it('takes strategic merge patches on built-in kinds without merge keys (kubectl cordon on a Node) and 415 on custom resources only', async () => {
    await using api = await startApi();
    await api.call('POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] },
    });
    const smp = { 'content-type': 'application/strategic-merge-patch+json' };
    const cordoned = await api.call('PATCH', '/api/v1/nodes/n1', { spec: { unschedulable: true } }, smp);
    assert.equal(cordoned.status, 200);
    assert.equal(cordoned.body.spec.unschedulable, true);
    assert.deepEqual(cordoned.body.spec.taints, [{ key: 'a', effect: 'NoSchedule' }]);
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    };
    await api.call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', role);
    const patched = await api.call('PATCH', '/apis/rbac.authorization.k8s.io/v1/clusterroles/r', { metadata: { labels: { x: 'y' } } }, smp);
    assert.equal(patched.status, 200);
    assert.equal(patched.body.metadata.labels.x, 'y');
    assert.equal(patched.body.rules.length, 1);
  });

  it('treats a resourceVersion in a patch as a precondition', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a'));
    const r = await api.call(
      'PATCH',
      `${CMS}/a`,
      { metadata: { resourceVersion: '1' }, data: { k: 'v' } },
      { 'content-type': 'application/merge-patch+json' },
    );
    assert.equal(r.status, 409);
  });

  it('creates and then merges with server-side apply, recording an Apply managedFields entry', async () => {
    await using api = await startApi();
    const headers = { 'content-type': 'application/apply-patch+yaml' };
    const body = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n';
    const noManager = await api.call('PATCH', `${CMS}/a`, body, headers);
    assert.equal(noManager.status, 422);
    const c = await api.call('PATCH', `${CMS}/a?fieldManager=me`, body, headers);
    assert.equal(c.status, 201);
    assert.equal(c.body.metadata.managedFields[0].operation, 'Apply');
    const u = await api.call('PATCH', `${CMS}/a?fieldManager=me`, body.replace('k: v', 'k: w'), headers);
    assert.equal(u.status, 200);
    assert.equal(u.body.data.k, 'w');
  });

  it('does nothing on dryRun=All but answers as if it had', async () => {
    await using api = await startApi();
    const r = await api.call('POST', `${CMS}?dryRun=All`, cm('a'));
    assert.equal(r.status, 201);
    assert.equal(r.body.metadata.resourceVersion, undefined);
    assert.ok(r.body.metadata.uid);
    assert.equal((await api.call('GET', `${CMS}/a`)).status, 404);
    const bad = await api.call('POST', `${CMS}?dryRun=Some`, cm('a'));
    assert.equal(bad.status, 422);
  });

  it('lets Leases be created by PUT and refuses an unconditional Lease update with 422', async () => {
    await using api = await startApi();
    const L = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: { holderIdentity: 'me', leaseDurationSeconds: 15 },
    };
    const c = await api.call('PUT', `${L}/l`, lease);
    assert.equal(c.status, 201);
    const u = await api.call('PUT', `${L}/l`, lease);
    assert.equal(u.status, 422);
    assert.equal(u.body.details.causes[0].field, 'metadata.resourceVersion');
    assert.match(u.body.message, /must be specified for an update/);
    const ok = await api.call('PUT', `${L}/l`, { ...c.body, spec: { ...c.body.spec, holderIdentity: 'you' } });
    assert.equal(ok.status, 200);
    const race = await api.call('PUT', `${L}/l`, { ...c.body, spec: { ...c.body.spec, holderIdentity: 'them' } });
    assert.equal(race.status, 409);
  });

  it('allocates distinct ClusterIPs for Services and keeps them immutable', async () => {
    await using api = await startApi();
    const S = '/api/v1/namespaces/default/services';
    const svc = (name: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }] } });
    const a = (await api.call('POST', S, svc('a'))).body;
    const b = (await api.call('POST', S, svc('b'))).body;
    assert.match(a.spec.clusterIP, /^10\.0\.0\.\d+$/);
    assert.notEqual(a.spec.clusterIP, b.spec.clusterIP);
    assert.notEqual(a.spec.clusterIP, '10.0.0.1');
    assert.deepEqual(a.spec.clusterIPs, [a.spec.clusterIP]);
    assert.equal(a.spec.ports[0].targetPort, 80);
    assert.equal(a.spec.ports[0].protocol, 'TCP');
    const k = (await api.call('GET', `${S}/kubernetes`)).body;
    assert.equal(k.spec.clusterIP, '10.0.0.1');
    const r = await api.call('PUT', `${S}/a`, { ...a, spec: { ...a.spec, clusterIP: '10.0.0.200', clusterIPs: ['10.0.0.200'] } });
    assert.equal(r.status, 422);
  });

  it('folds Secret stringData into base64 data and defaults type Opaque', async () => {
    await using api = await startApi();
    const r = (
      await api.call('POST', '/api/v1/namespaces/default/secrets', {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's' },
        stringData: { pw: 'hunter2' },
      })
    ).body;
    assert.equal(r.type, 'Opaque');
    assert.equal(r.data.pw, Buffer.from('hunter2').toString('base64'));
    assert.equal(r.stringData, undefined);
  });

  it('sets Pod status Pending with a QoS class and answers a delete with the deleted Pod', async () => {
    await using api = await startApi();
    const P = '/api/v1/namespaces/default/pods';
    const p = (
      await api.call('POST', P, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'c', image: 'x' }] },
      })
    ).body;
    assert.deepEqual(p.status, { phase: 'Pending', qosClass: 'BestEffort' });
    assert.equal(p.metadata.generation, 1);
    const d = await api.call('DELETE', `${P}/p`);
    assert.equal(d.body.kind, 'Pod');
  });
});

describe('deletion and finalizers', () => {
  it('marks an object with finalizers as deleting (MODIFIED), then DELETED when the last finalizer goes', async () => {
    await using api = await startApi();
    const a = (await api.call('POST', CMS, cm('a', {}, { finalizers: ['example.com/hold'] }))).body;
    const w = await api.watch(`${CMS}?watch=true&resourceVersion=${a.metadata.resourceVersion}`);
    const d = await api.call('DELETE', `${CMS}/a`);
    assert.equal(d.status, 200);
    assert.equal(d.body.kind, 'ConfigMap');
    assert.ok(d.body.metadata.deletionTimestamp);
    assert.equal(d.body.metadata.deletionGracePeriodSeconds, 0);
    const m = await w.next();
    assert.equal(m?.type, 'MODIFIED');
    const cur = (await api.call('GET', `${CMS}/a`)).body;
    const more = await api.call('PUT', `${CMS}/a`, {
      ...cur,
      metadata: { ...cur.metadata, finalizers: ['example.com/hold', 'example.com/more'] },
    });
    assert.equal(more.status, 422);
    assert.match(more.body.message, /no new finalizers can be added if the object is being deleted/);
    const done = await api.call('PUT', `${CMS}/a`, { ...cur, metadata: { ...cur.metadata, finalizers: [] } });
    assert.equal(done.status, 200);
    assert.equal((await w.next())?.type, 'DELETED');
    assert.equal((await api.call('GET', `${CMS}/a`)).status, 404);
  });

  it('records Orphan and Foreground propagation as finalizers', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a'));
    await api.call('POST', CMS, cm('b'));
    const o = await api.call('DELETE', `${CMS}/a`, { propagationPolicy: 'Orphan' });
    assert.deepEqual(o.body.metadata.finalizers, ['orphan']);
    const f = await api.call('DELETE', `${CMS}/b?propagationPolicy=Foreground`);
    assert.deepEqual(f.body.metadata.finalizers, ['foregroundDeletion']);
    const bg = await api.call('DELETE', `${CMS}/b`, { propagationPolicy: 'Background' });
    assert.equal(bg.status, 200);
  });

  it('answers 202 to a legacy orphanDependents=false delete that is not immediate, and 200 otherwise', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('held', {}, { finalizers: ['example.com/hold'] }));
    await api.call('POST', CMS, cm('free'));
    const held = await api.call('DELETE', `${CMS}/held`, { orphanDependents: false });
    assert.equal(held.status, 202, held.text);
    assert.equal(held.body.kind, 'ConfigMap');
    assert.ok(held.body.metadata.deletionTimestamp);
    const free = await api.call('DELETE', `${CMS}/free?orphanDependents=false`);
    assert.equal(free.status, 200, free.text);
    assert.equal(free.body.status, 'Success');
    await api.call('POST', CMS, cm('policy', {}, { finalizers: ['example.com/hold'] }));
    assert.equal((await api.call('DELETE', `${CMS}/policy`, { propagationPolicy: 'Background' })).status, 200);
  });

  it('checks delete preconditions on uid and resourceVersion with 409', async () => {
    await using api = await startApi();
    const a = (await api.call('POST', CMS, cm('a'))).body;
    const u = await api.call('DELETE', `${CMS}/a`, { preconditions: { uid: 'nope' } });
    assert.equal(u.status, 409);
    assert.equal(u.body.reason, 'Conflict');
    assert.equal(
      u.body.message,
      `Operation cannot be fulfilled on configmaps "a": the UID in the precondition (nope) does not match the UID in record (${a.metadata.uid}). The object might have been deleted and then recreated`,
    );
    const rv = await api.call('DELETE', `${CMS}/a`, { preconditions: { resourceVersion: '1' } });
    assert.equal(rv.status, 409);
    assert.match(
      rv.body.message,
      /: the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record \(\d+\)\. The object might have been modified$/,
    );
    const ok = await api.call('DELETE', `${CMS}/a`, {
      preconditions: { uid: a.metadata.uid, resourceVersion: a.metadata.resourceVersion },
    });
    assert.equal(ok.status, 200);
  });

  it('terminates a namespace, refuses new content in it, deletes its contents and then the namespace', async () => {
    await using api = await startApi();
    await api.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tmp' } });
    await api.call('POST', '/api/v1/namespaces/tmp/configmaps', cm('held', {}, { finalizers: ['example.com/hold'] }));
    await api.call('POST', '/api/v1/namespaces/tmp/configmaps', cm('free'));
    const d = await api.call('DELETE', '/api/v1/namespaces/tmp');
    assert.equal(d.status, 200);
    assert.equal(d.body.status.phase, 'Terminating');
    const create = await api.call('POST', '/api/v1/namespaces/tmp/configmaps', cm('new'));
    assert.equal(create.status, 403);
    assert.equal(create.body.details.causes[0].reason, 'NamespaceTerminating');
    const again = await api.call('DELETE', '/api/v1/namespaces/tmp');
    assert.equal(again.status, 409);
    assert.equal((await api.call('GET', '/api/v1/namespaces/tmp/configmaps/free')).status, 404);
    const held = (await api.call('GET', '/api/v1/namespaces/tmp/configmaps/held')).body;
    assert.ok(held.metadata.deletionTimestamp);
    assert.equal((await api.call('GET', '/api/v1/namespaces/tmp')).status, 200, 'still there while content remains');
    await api.call('PUT', '/api/v1/namespaces/tmp/configmaps/held', { ...held, metadata: { ...held.metadata, finalizers: [] } });
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) status = (await api.call('GET', '/api/v1/namespaces/tmp')).status;
    assert.equal(status, 404);
  });

  it('clears namespace spec finalizers through /finalize, which removes a deleting namespace', async () => {
    await using api = await startApi();
    const ns = (
      await api.call('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'fin', finalizers: ['example.com/keep'] },
      })
    ).body;
    const cleared = await api.call('PUT', '/api/v1/namespaces/fin/finalize', {
      ...ns,
      spec: { finalizers: [] },
      metadata: { ...ns.metadata, labels: { ignored: 'yes' } },
    });
    assert.equal(cleared.status, 200);
    assert.deepEqual(cleared.body.spec.finalizers, []);
    assert.equal(cleared.body.metadata.labels.ignored, undefined);
    assert.equal((await api.call('GET', '/api/v1/namespaces/fin/finalize')).status, 405);
  });

  it('gives a Pod bound to a node its grace period, and deletes it on a later delete with grace 0', async () => {
    await using api = await startApi();
    const P = '/api/v1/namespaces/default/pods';
    await api.call('POST', P, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] },
    });
    const d = await api.call('DELETE', `${P}/p`);
    assert.equal(d.status, 200);
    assert.equal(d.body.metadata.deletionGracePeriodSeconds, 30);
    assert.equal(d.body.metadata.generation, 2);
    assert.equal((await api.call('GET', `${P}/p`)).status, 200);
    const now = await api.call('DELETE', `${P}/p`, { gracePeriodSeconds: 0 });
    assert.equal(now.status, 200);
    assert.equal((await api.call('GET', `${P}/p`)).status, 404);
  });

  it('refuses to delete default, kube-system and kube-public with 403', async () => {
    await using api = await startApi();
    for (const n of ['default', 'kube-system', 'kube-public']) {
      const r = await api.call('DELETE', `/api/v1/namespaces/${n}`);
      assert.equal(r.status, 403);
      assert.match(r.body.message, /this namespace may not be deleted/);
    }
  });
});

describe('events through two API groups', () => {
  it('stores core/v1 and events.k8s.io/v1 Events once, each readable through the other group', async () => {
    await using api = await startApi();
    const V1 = '/apis/events.k8s.io/v1/namespaces/default/events';
    const CORE = '/api/v1/namespaces/default/events';
    const w = await api.watch(`${CORE}?watch=true&resourceVersion=1`);
    const e = await api.call('POST', V1, {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e1' },
      eventTime: '2026-01-01T00:00:00.000000Z',
      regarding: { kind: 'ConfigMap', name: 'a', namespace: 'default' },
      note: 'hello',
      reason: 'Tested',
      type: 'Normal',
      reportingController: 'me',
      reportingInstance: 'me-1',
      action: 'Test',
    });
    assert.equal(e.status, 201);
    assert.equal(e.body.note, 'hello');
    const core = (await api.call('GET', `${CORE}/e1`)).body;
    assert.equal(core.apiVersion, 'v1');
    assert.equal(core.message, 'hello');
    assert.equal(core.involvedObject.name, 'a');
    assert.equal(core.reportingComponent, 'me');
    assert.equal((await w.next())?.object.message, 'hello');
    const sel = (await api.call('GET', `${CORE}?fieldSelector=involvedObject.name%3Da`)).body;
    assert.equal(sel.items.length, 1);
    await api.call('POST', CORE, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e2' },
      involvedObject: { kind: 'Pod', name: 'p' },
      message: 'core',
      reason: 'R',
    });
    const v1 = (await api.call('GET', `${V1}/e2`)).body;
    assert.equal(v1.apiVersion, 'events.k8s.io/v1');
    assert.equal(v1.note, 'core');
    assert.equal(v1.regarding.name, 'p');
    const patched = await api.call(
      'PATCH',
      `${V1}/e1`,
      { series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' } },
      { 'content-type': 'application/merge-patch+json' },
    );
    assert.equal(patched.status, 200);
    assert.equal((await api.call('GET', `${CORE}/e1`)).body.series.count, 2);
  });
});

describe('server-side apply', () => {
  const headers = { 'content-type': 'application/apply-patch+yaml' };
  const applyCm = (data: Record<string, string>) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data });

  it('removes fields the manager applied before and omits now, but keeps fields another manager owns', async () => {
    await using api = await startApi();
    await api.call('PATCH', `${CMS}/a?fieldManager=one`, applyCm({ x: '1', y: '2' }), headers);
    await api.call('PATCH', `${CMS}/a?fieldManager=other`, { data: { z: '3' } }, { 'content-type': 'application/merge-patch+json' });
    const r = await api.call('PATCH', `${CMS}/a?fieldManager=one`, applyCm({ x: '1' }), headers);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { x: '1', z: '3' });
    const one = r.body.metadata.managedFields.find((e: { manager: string }) => e.manager === 'one');
    assert.deepEqual(one.fieldsV1, { 'f:data': { 'f:x': {} } });
  });

  it('answers a re-apply that turns an object field into a list with a Status, not a failure inside the pruning', async () => {
    await using api = await startApi();
    const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
    const apply = (template: unknown) =>
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: { selector: { matchLabels: { a: 'b' } }, template },
      });
    const first = await api.call(
      'PATCH',
      `${DEPLOYS}/d?fieldManager=one`,
      apply({ metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } }),
      headers,
    );
    assert.equal(first.status, 201, first.text);
    const r = await api.call('PATCH', `${DEPLOYS}/d?fieldManager=one`, apply([]), headers);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.reason, 'BadRequest');
  });

  it('ignores client-written managed field keys that name no list element', async () => {
    await using api = await startApi();
    const created = await api.call('POST', CMS, {
      metadata: {
        name: 'a',
        finalizers: ['x/y'],
        managedFields: [
          {
            manager: 'one',
            operation: 'Apply',
            apiVersion: 'v1',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:metadata': { 'f:finalizers': { 'k:not json': {}, 'v:"x/y"': {} } } },
          },
        ],
      },
    });
    assert.equal(created.status, 201, created.text);
    const r = await api.call('PATCH', `${CMS}/a?fieldManager=one`, applyCm({ x: '1' }), headers);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.data, { x: '1' });
  });

  it('reports a conflict with the owning manager, and takes the field over with force', async () => {
    await using api = await startApi();
    await api.call('PATCH', `${CMS}/a?fieldManager=one`, applyCm({ x: '1' }), headers);
    const c = await api.call('PATCH', `${CMS}/a?fieldManager=two`, applyCm({ x: '2' }), headers);
    assert.equal(c.status, 409);
    assert.equal(c.body.reason, 'Conflict');
    assert.equal(c.body.message, 'Apply failed with 1 conflict: conflict with "one": .data.x');
    assert.deepEqual(c.body.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "one"', field: '.data.x' }]);
    const same = await api.call('PATCH', `${CMS}/a?fieldManager=two`, applyCm({ x: '1' }), headers);
    assert.equal(same.status, 200, 'same value: shared ownership, no conflict');
    const f = await api.call('PATCH', `${CMS}/a?fieldManager=two&force=true`, applyCm({ x: '2' }), headers);
    assert.equal(f.status, 200);
    assert.equal(f.body.data.x, '2');
    const managers = f.body.metadata.managedFields.map((e: { manager: string }) => e.manager);
    assert.deepEqual(managers, ['two']);
  });

  it('follows list markers: keyed lists of custom resources merge by key, unmarked lists are atomic, finalizers are a set', async () => {
    await using api = await startApi();
    const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const item = { type: 'object', properties: { id: { type: 'string' }, v: { type: 'string' } } };
    await api.call(
      'POST',
      CRDS,
      specCrd('Thing', 'things', {
        properties: {
          keyed: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['id'],
            items: { ...item, required: ['id'] },
          },
          plain: { type: 'array', items: item },
        },
      }),
    );
    const T = '/apis/example.com/v1/namespaces/default/things';
    const thing = (keyed: unknown[], plain: unknown[], finalizers: string[]) =>
      JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't', finalizers }, spec: { keyed, plain } });
    await api.call('PATCH', `${T}/t?fieldManager=a`, thing([{ id: '1', v: 'a' }], [{ id: '1' }], ['example.com/a']), headers);
    const r = await api.call('PATCH', `${T}/t?fieldManager=b`, thing([{ id: '2', v: 'b' }], [{ id: '2' }], ['example.com/b']), headers);
    assert.equal(r.status, 409, 'the atomic list is owned by a');
    const f = await api.call(
      'PATCH',
      `${T}/t?fieldManager=b&force=true`,
      thing([{ id: '2', v: 'b' }], [{ id: '2' }], ['example.com/b']),
      headers,
    );
    assert.deepEqual(
      f.body.spec.keyed.map((x: { id: string }) => x.id),
      ['1', '2'],
    );
    assert.deepEqual(f.body.spec.plain, [{ id: '2' }]);
    assert.deepEqual(f.body.metadata.finalizers, ['example.com/a', 'example.com/b']);
    const b = f.body.metadata.managedFields.find((e: { manager: string }) => e.manager === 'b');
    assert.deepEqual(b.fieldsV1['f:metadata'], { 'f:finalizers': { 'v:"example.com/b"': {} } });
    assert.ok(b.fieldsV1['f:spec']['f:keyed']['k:{"id":"2"}']);
  });

  it('merges named lists element by element and leaves defaulted fields unowned', async () => {
    await using api = await startApi();
    const dep = (containers: unknown[]) =>
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers } } },
      });
    const D = '/apis/apps/v1/namespaces/default/deployments';
    const c = await api.call('PATCH', `${D}/d?fieldManager=me`, dep([{ name: 'a', image: 'x' }]), headers);
    assert.equal(c.status, 201);
    assert.equal(c.body.metadata.managedFields[0].fieldsV1['f:spec']['f:replicas'], undefined);
    const u = await api.call(
      'PATCH',
      `${D}/d?fieldManager=me`,
      dep([
        { name: 'a', image: 'y' },
        { name: 'b', image: 'z' },
      ]),
      headers,
    );
    assert.deepEqual(
      u.body.spec.template.spec.containers.map((x: { name: string; image: string }) => `${x.name}=${x.image}`),
      ['a=y', 'b=z'],
    );
    assert.equal(u.body.spec.template.spec.containers[0].terminationMessagePath, '/dev/termination-log');
    const again = await api.call(
      'PATCH',
      `${D}/d?fieldManager=me`,
      dep([
        { name: 'a', image: 'y' },
        { name: 'b', image: 'z' },
      ]),
      headers,
    );
    assert.equal(again.body.metadata.resourceVersion, u.body.metadata.resourceVersion, 'an unchanged apply is a no-op');
  });
});

describe('other built-in kinds', () => {
  it('selects stored built-ins by their extra field-selector fields (Node spec.unschedulable, Job status.successful)', async () => {
    await using api = await startApi();
    await api.call('POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'cordoned' },
      spec: { unschedulable: true },
    });
    await api.call('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'open' } });
    const names = (r: { body: { items: { metadata: { name: string } }[] } }) => r.body.items.map((n) => n.metadata.name);
    assert.deepEqual(names(await api.call('GET', '/api/v1/nodes?fieldSelector=spec.unschedulable%3Dtrue')), ['cordoned']);
    assert.deepEqual(names(await api.call('GET', '/api/v1/nodes?fieldSelector=spec.unschedulable!%3Dtrue')), ['open']);
    assert.equal((await api.call('GET', '/apis/batch/v1/jobs?fieldSelector=status.successful%3D1')).status, 200);
    assert.equal((await api.call('GET', '/api/v1/nodes?fieldSelector=spec.taints%3Dx')).status, 400);
  });

  it('stores StatefulSets with generation, status and scale, Jobs, RBAC and cluster-scoped Nodes', async () => {
    await using api = await startApi();
    const STS = '/apis/apps/v1/namespaces/default/statefulsets';
    const sts = await api.call('POST', STS, {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's' },
      spec: { replicas: 1, selector: { matchLabels: { a: 'b' } } },
    });
    assert.equal(sts.status, 201);
    assert.equal(sts.body.metadata.generation, 1);
    const scaled = await api.call('PATCH', `${STS}/s/scale`, { spec: { replicas: 3 } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(scaled.body.spec.replicas, 3);
    assert.equal(scaled.body.status.selector, 'a=b');
    assert.equal((await api.call('GET', `${STS}/s`)).body.metadata.generation, 2);
    const job = await api.call('POST', '/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j' },
      spec: {},
    });
    assert.equal(job.status, 201);
    const role = await api.call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r' },
      rules: [],
    });
    assert.equal(role.status, 201);
    const node = await api.call('POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      spec: { unschedulable: true },
    });
    assert.equal(node.status, 201);
    const sel = (await api.call('GET', '/api/v1/nodes?fieldSelector=spec.unschedulable%3Dtrue')).body;
    assert.equal(sel.items.length, 1);
    const disc = (await api.call('GET', '/apis/apps/v1')).body.resources.map((r: { name: string }) => r.name);
    assert.ok(disc.includes('statefulsets/scale'));
  });
});

describe('POST-only subresources', () => {
  it('evicts a Pod through pods/eviction (201 Success) and issues tokens through serviceaccounts/token', async () => {
    await using api = await startApi();
    const P = '/api/v1/namespaces/default/pods';
    await api.call('POST', P, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    });
    assert.equal((await api.call('GET', `${P}/p/eviction`)).status, 405);
    const ev = await api.call('POST', `${P}/p/eviction`, {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'p', namespace: 'default' },
    });
    assert.equal(ev.status, 201);
    assert.equal(ev.body.status, 'Success');
    assert.equal((await api.call('GET', `${P}/p`)).status, 404);
    assert.equal(
      (await api.call('POST', `${P}/gone/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'gone' } })).status,
      404,
    );
    const SA = '/api/v1/namespaces/default/serviceaccounts';
    await api.call('POST', SA, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
    const t = await api.call('POST', `${SA}/robot/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { audiences: ['api'] },
    });
    assert.equal(t.status, 201);
    assert.equal(t.body.kind, 'TokenRequest');
    const claims = JSON.parse(Buffer.from(t.body.status.token.split('.')[1], 'base64url').toString());
    assert.equal(claims.sub, 'system:serviceaccount:default:robot');
    assert.deepEqual(claims.aud, ['api']);
    const disc = (await api.call('GET', '/api/v1')).body.resources.map((r: { name: string }) => r.name);
    assert.ok(disc.includes('pods/eviction') && disc.includes('serviceaccounts/token'));
  });
});
