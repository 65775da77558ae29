// Resource operations over HTTP against a fixture server: URLs, verbs, bodies and query parameters of
// each client call.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, NamespaceResource, DeploymentResource, PodResource, type ObjectOf } from 'kube-converge/meta';
import { createClient, isNotFound, isConflict, ListDecodeError, StatusError, NetworkError } from 'kube-converge/client';
import { startFixtureServer, sendJson } from './fixture-server.js';

const cm = (name: string, data: Record<string, string> = {}): ObjectOf<typeof ConfigMapResource> => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'default', name },
  data,
});

describe('resource operations over HTTP', () => {
  it('addresses core and grouped, namespaced and cluster-scoped resources by descriptor', async () => {
    await using srv = await startFixtureServer((_req, res) => sendJson(res, 200, { metadata: { name: 'x' } }));
    const c = createClient({ server: srv.url, qps: -1 });
    await c.get(ConfigMapResource, { namespace: 'ns', name: 'a b' });
    await c.get(NamespaceResource, { name: 'kube-system' });
    await c.get(DeploymentResource, { namespace: 'ns', name: 'd' }, { subresource: 'scale' });
    await c.list(ConfigMapResource, {});
    await c.list(DeploymentResource, {
      namespace: 'prod',
      labelSelector: 'app=web,tier!=db',
      fieldSelector: 'metadata.name=x',
      limit: 5,
      continue: 'tok',
    });
    await c.list(ConfigMapResource, { resourceVersion: '10', resourceVersionMatch: 'NotOlderThan' });
    c.close();
    assert.deepEqual(
      srv.requests.map((r) => `${r.method} ${r.url}`),
      [
        'GET /api/v1/namespaces/ns/configmaps/a%20b',
        'GET /api/v1/namespaces/kube-system',
        'GET /apis/apps/v1/namespaces/ns/deployments/d/scale',
        'GET /api/v1/configmaps',
        'GET /apis/apps/v1/namespaces/prod/deployments?labelSelector=app%3Dweb%2Ctier%21%3Ddb&fieldSelector=metadata.name%3Dx&limit=5&continue=tok',
        'GET /api/v1/configmaps?resourceVersion=10&resourceVersionMatch=NotOlderThan',
      ],
    );
    assert.equal(srv.requests[0]!.headers.accept, 'application/json');
  });

  it('sends writes with their verbs, bodies, content types and write options', async () => {
    await using srv = await startFixtureServer((_req, res) => sendJson(res, 200, { metadata: { name: 'x' } }));
    const c = createClient({ server: srv.url, qps: -1 });
    await c.create(ConfigMapResource, cm('a'), { dryRun: true, fieldManager: 'me', fieldValidation: 'Strict' });
    await c.update(ConfigMapResource, cm('a', { k: 'v' }));
    await c.updateStatus(DeploymentResource, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { namespace: 'ns', name: 'd' },
    } as never);
    await c.patch(ConfigMapResource, { namespace: 'default', name: 'a' }, [{ op: 'add', path: '/data/x', value: '1' }], 'json');
    await c.patch(ConfigMapResource, { namespace: 'default', name: 'a' }, { data: { x: null } }, 'merge');
    await c.patch(DeploymentResource, { namespace: 'ns', name: 'd' }, { spec: { replicas: 2 } }, 'strategic');
    await c.patch(ConfigMapResource, { namespace: 'default', name: 'a' }, cm('a'), 'apply', { fieldManager: 'ctl', force: true });
    await c.patch(DeploymentResource, { namespace: 'ns', name: 'd' }, { status: {} }, 'merge', { subresource: 'status' });
    await c.delete(
      ConfigMapResource,
      { namespace: 'default', name: 'a' },
      { propagationPolicy: 'Foreground', gracePeriodSeconds: 0, preconditions: { uid: 'u1', resourceVersion: '7' } },
    );
    await c.delete(ConfigMapResource, { namespace: 'default', name: 'b' });
    await c.deleteCollection(ConfigMapResource, { namespace: 'default', labelSelector: 'a=b', propagationPolicy: 'Background' });
    c.close();
    const seen = srv.requests.map((r) => [`${r.method} ${r.url}`, r.headers['content-type'], r.body]);
    assert.deepEqual(seen, [
      [
        'POST /api/v1/namespaces/default/configmaps?dryRun=All&fieldManager=me&fieldValidation=Strict',
        'application/json',
        JSON.stringify(cm('a')),
      ],
      ['PUT /api/v1/namespaces/default/configmaps/a', 'application/json', JSON.stringify(cm('a', { k: 'v' }))],
      [
        'PUT /apis/apps/v1/namespaces/ns/deployments/d/status',
        'application/json',
        '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"namespace":"ns","name":"d"}}',
      ],
      ['PATCH /api/v1/namespaces/default/configmaps/a', 'application/json-patch+json', '[{"op":"add","path":"/data/x","value":"1"}]'],
      ['PATCH /api/v1/namespaces/default/configmaps/a', 'application/merge-patch+json', '{"data":{"x":null}}'],
      ['PATCH /apis/apps/v1/namespaces/ns/deployments/d', 'application/strategic-merge-patch+json', '{"spec":{"replicas":2}}'],
      [
        'PATCH /api/v1/namespaces/default/configmaps/a?fieldManager=ctl&force=true',
        'application/apply-patch+yaml',
        JSON.stringify(cm('a')),
      ],
      ['PATCH /apis/apps/v1/namespaces/ns/deployments/d/status', 'application/merge-patch+json', '{"status":{}}'],
      [
        'DELETE /api/v1/namespaces/default/configmaps/a',
        'application/json',
        '{"apiVersion":"v1","kind":"DeleteOptions","propagationPolicy":"Foreground","gracePeriodSeconds":0,"preconditions":{"uid":"u1","resourceVersion":"7"}}',
      ],
      ['DELETE /api/v1/namespaces/default/configmaps/b', undefined, ''],
      [
        'DELETE /api/v1/namespaces/default/configmaps?labelSelector=a%3Db',
        'application/json',
        '{"apiVersion":"v1","kind":"DeleteOptions","propagationPolicy":"Background"}',
      ],
    ]);
  });

  it('posts to other subresources such as a pod eviction', async () => {
    await using srv = await startFixtureServer((_req, res) =>
      sendJson(res, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }),
    );
    const c = createClient({ server: srv.url, qps: -1 });
    const eviction = {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { namespace: 'ns', name: 'web-0' },
      deleteOptions: { gracePeriodSeconds: 5 },
    };
    await c.createSubresource(PodResource, { namespace: 'ns', name: 'web-0' }, 'eviction', eviction, { dryRun: true });
    assert.equal(`${srv.requests[0]!.method} ${srv.requests[0]!.url}`, 'POST /api/v1/namespaces/ns/pods/web-0/eviction?dryRun=All');
    assert.deepEqual(JSON.parse(srv.requests[0]!.body), eviction);
    c.close();
  });

  it('rejects a namespaced create without a namespace before sending anything', async () => {
    await using srv = await startFixtureServer((_req, res) => sendJson(res, 200, {}));
    const c = createClient({ server: srv.url, qps: -1 });
    await assert.rejects(c.create(ConfigMapResource, { metadata: { name: 'a' } } as never), { code: 'CONVERGE_INVALID_OPTION' });
    assert.equal(srv.requests.length, 0);
    c.close();
  });

  it('turns a Status body into a StatusError and a plain-text 404 into NotFound', async () => {
    await using srv = await startFixtureServer((req, res) => {
      if (req.url.includes('conflict')) {
        sendJson(res, 409, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          reason: 'Conflict',
          code: 409,
          message: 'the object has been modified',
          details: { name: 'conflict', kind: 'configmaps' },
        });
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('404 page not found\n');
      }
    });
    const c = createClient({ server: srv.url, qps: -1 });
    const conflict = await c.get(ConfigMapResource, { namespace: 'd', name: 'conflict' }).catch((e: unknown) => e);
    assert.ok(conflict instanceof StatusError);
    assert.ok(isConflict(conflict));
    assert.equal(conflict.status.details?.name, 'conflict');
    const missing = await c.get(ConfigMapResource, { namespace: 'd', name: 'missing' }).catch((e: unknown) => e);
    assert.ok(missing instanceof StatusError);
    assert.ok(isNotFound(missing));
    assert.equal(missing.status.code, 404);
    assert.match(missing.status.message ?? '', /404 page not found/);
    c.close();
  });

  it('decodes a list answer written in pieces item by item; items null is empty; a malformed list rejects with ListDecodeError', async () => {
    const list = JSON.stringify({
      kind: 'ConfigMapList',
      metadata: { resourceVersion: '7', continue: 'next' },
      items: [cm('a', { k: 'ü✓' }), cm('b')],
    });
    await using srv = await startFixtureServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url.includes('/namespaces/empty/')) res.end('{"metadata":{"resourceVersion":"3"},"items":null}');
      else if (req.url.includes('/namespaces/bad/')) res.end('{"metadata":{},"items":[{"metadata":{"name":"a"}},2]}');
      else if (req.method === 'DELETE') res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Success' }));
      else {
        // Three bytes at a time, so items and multi-byte characters are split between chunks.
        const bytes = Buffer.from(list);
        for (let i = 0; i < bytes.length; i += 3) res.write(bytes.subarray(i, i + 3));
        res.end();
      }
    });
    const c = createClient({ server: srv.url, qps: -1 });
    assert.deepEqual(await c.list(ConfigMapResource, { namespace: 'default' }), JSON.parse(list));
    assert.deepEqual(await c.list(ConfigMapResource, { namespace: 'empty' }), { metadata: { resourceVersion: '3' }, items: [] });
    await assert.rejects(
      c.list(ConfigMapResource, { namespace: 'bad' }),
      (e: unknown) => e instanceof ListDecodeError && e.where === 'items[1]',
    );
    assert.deepEqual(await c.deleteCollection(ConfigMapResource, { namespace: 'default' }), {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Success',
    });
    c.close();
  });

  it('fails with a NetworkError naming the method and URL when nothing listens', async () => {
    const srv = await startFixtureServer(() => undefined);
    await srv.stop();
    const c = createClient({ server: srv.url, qps: -1, maxRetries: 0 });
    const err = await c.create(ConfigMapResource, cm('a')).catch((e: unknown) => e);
    assert.ok(err instanceof NetworkError);
    assert.equal(err.code, 'CONVERGE_NETWORK');
    assert.match(err.message, new RegExp(`POST ${srv.url}/api/v1/namespaces/default/configmaps: connect ECONNREFUSED`));
    c.close();
  });
});
