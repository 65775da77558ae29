// @kubernetes/client-node's typed CoreV1Api against `converge apiserver` run as a process, with its kubeconfig loaded
// unedited (HTTPS with its CA and bearer token): ConfigMap create, read, list, replace, patch (JSON, merge and
// strategic merge) and delete, and a missing object as an ApiException with code 404.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ApiException, PatchStrategy, setHeaderOptions, type V1ConfigMap } from '@kubernetes/client-node';
import { startClientNodeEnv, type ClientNodeEnv } from './harness.js';

describe('client-node CoreV1Api against converge apiserver', () => {
  let env: ClientNodeEnv;
  before(async () => {
    env = await startClientNodeEnv('client-node-core');
  });
  // `before` may have failed before the server started.
  after(async () => {
    if (env !== undefined) await env.server.stop();
  });

  it('loads the kubeconfig as written: HTTPS verified against its CA, with its bearer token', async () => {
    const cluster = env.kc.getCurrentCluster();
    assert.equal(cluster?.server, env.server.url);
    assert.match(env.server.url, /^https:/);
    assert.ok(cluster?.caData, 'certificate-authority-data');
    assert.notEqual(cluster?.skipTLSVerify, true);
    assert.ok(env.kc.getCurrentUser()?.token, 'a bearer token');
    const names = (await env.core.listNamespace()).items.map((n) => n.metadata?.name);
    assert.ok(names.includes(env.namespace));
  });

  it('creates, reads, lists, replaces, patches and deletes a ConfigMap', async () => {
    const { core, namespace } = env;
    const created = await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'app' }, data: { a: '1' } } });
    assert.equal(created.metadata?.namespace, namespace);
    assert.ok(created.metadata?.uid);
    const read = await core.readNamespacedConfigMap({ name: 'app', namespace });
    assert.equal(read.metadata?.uid, created.metadata.uid);
    assert.deepEqual(read.data, { a: '1' });
    const list = await core.listNamespacedConfigMap({ namespace });
    assert.deepEqual(
      list.items.map((c) => c.metadata?.name),
      ['app'],
    );
    assert.ok(list.metadata?.resourceVersion);

    const replaced = await core.replaceNamespacedConfigMap({ name: 'app', namespace, body: { ...read, data: { a: '2' } } });
    assert.deepEqual(replaced.data, { a: '2' });
    assert.ok(Number(replaced.metadata?.resourceVersion) > Number(created.metadata.resourceVersion));

    // The generated client sends a JSON patch unless told otherwise.
    const jsonPatched = await core.patchNamespacedConfigMap({ name: 'app', namespace, body: [{ op: 'add', path: '/data/b', value: '3' }] });
    assert.deepEqual(jsonPatched.data, { a: '2', b: '3' });
    const merged = await core.patchNamespacedConfigMap(
      { name: 'app', namespace, body: { data: { a: null } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.deepEqual(merged.data, { b: '3' });
    const strategic = await core.patchNamespacedConfigMap(
      { name: 'app', namespace, body: { metadata: { labels: { tier: 'web' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    assert.deepEqual(strategic.metadata?.labels, { tier: 'web' });

    const status = await core.deleteNamespacedConfigMap({ name: 'app', namespace });
    assert.equal(status.status, 'Success');
    assert.deepEqual((await core.listNamespacedConfigMap({ namespace })).items, []);
  });

  it('rejects reading a missing ConfigMap with an ApiException of code 404 carrying a NotFound Status', async () => {
    const err: unknown = await env.core.readNamespacedConfigMap({ name: 'missing', namespace: env.namespace }).then(
      (cm: V1ConfigMap) => assert.fail(`read a missing ConfigMap: ${JSON.stringify(cm)}`),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ApiException, `not an ApiException: ${String(err)}`);
    assert.equal(err.code, 404);
    const body = typeof err.body === 'string' ? JSON.parse(err.body) : err.body;
    assert.equal(body.kind, 'Status');
    assert.equal(body.reason, 'NotFound');
  });
});
