// The RBAC authorizer of the local API server, one rule per test: who a binding reaches, what a
// rule's verbs, groups, resources, subresources, resourceNames and non-resource URLs allow, how
// request attributes are derived from the method and URL, aggregation, the bootstrap roles, and the
// admin's short-circuit. Requests go through the in-process handler with the user the socket would
// have authenticated.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer, type UserInfo } from 'kube-converge/apiserver';

const sa = (namespace: string, name: string): UserInfo => ({
  username: `system:serviceaccount:${namespace}:${name}`,
  groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
});
const OP = sa('default', 'op');
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

async function call(api: ApiServer, method: string, path: string, user?: UserInfo, body?: unknown) {
  const r = await api.handle({
    method,
    path,
    ...(user ? { user } : {}),
    headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: r.body.startsWith('{') ? JSON.parse(r.body) : r.body };
}

/** Creates objects as the trusted in-process caller (the admin). */
async function admin(api: ApiServer, path: string, body: unknown): Promise<void> {
  const r = await call(api, 'POST', path, undefined, body);
  assert.equal(r.status, 201, JSON.stringify(r.body));
}

const rule = (verbs: string[], resources: string[], apiGroups = [''], extra: object = {}) => ({ verbs, resources, apiGroups, ...extra });

async function role(api: ApiServer, namespace: string, name: string, rules: object[]): Promise<void> {
  await admin(api, `${RBAC}/namespaces/${namespace}/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name },
    rules,
  });
}
async function clusterRole(api: ApiServer, name: string, rules: object[], extra: object = {}): Promise<void> {
  await admin(api, `${RBAC}/clusterroles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name },
    rules,
    ...extra,
  });
}
const toOp = [{ kind: 'ServiceAccount', name: 'op', namespace: 'default' }];
async function roleBinding(
  api: ApiServer,
  namespace: string,
  name: string,
  roleRef: { kind: string; name: string },
  subjects: object[] = toOp,
) {
  await admin(api, `${RBAC}/namespaces/${namespace}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef },
    subjects,
  });
}
async function clusterRoleBinding(api: ApiServer, name: string, roleName: string, subjects: object[] = toOp) {
  await admin(api, `${RBAC}/clusterrolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects,
  });
}

async function withServer(body: (api: ApiServer) => Promise<void>): Promise<void> {
  const api = createApiServer();
  try {
    await admin(api, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    await body(api);
  } finally {
    api.stop();
  }
}

const status = async (api: ApiServer, method: string, path: string, user: UserInfo = OP, body?: unknown) =>
  (await call(api, method, path, user, body)).status;
const CM = (ns: string, name = '') => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;

describe('RBAC authorization', () => {
  it('denies a user no binding reaches, with the message kube-apiserver writes', async () => {
    await withServer(async (api) => {
      const r = await call(api, 'GET', CM('default'), OP);
      assert.equal(r.status, 403);
      assert.deepEqual(r.body, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'configmaps is forbidden: User "system:serviceaccount:default:op" cannot list resource "configmaps" in API group "" in the namespace "default"',
        reason: 'Forbidden',
        details: { kind: 'configmaps' },
        code: 403,
      });
    });
  });

  it('a RoleBinding grants its Role in its own namespace only', async () => {
    await withServer(async (api) => {
      await role(api, 'default', 'cm', [rule(['get', 'list'], ['configmaps'])]);
      await roleBinding(api, 'default', 'cm', { kind: 'Role', name: 'cm' });
      assert.equal(await status(api, 'GET', CM('default')), 200);
      assert.equal(await status(api, 'GET', CM('other')), 403);
      assert.equal(await status(api, 'GET', '/api/v1/configmaps'), 403);
    });
  });

  it('a RoleBinding to a ClusterRole grants it in the binding namespace only', async () => {
    await withServer(async (api) => {
      await clusterRole(api, 'cm-reader', [rule(['list'], ['configmaps'])]);
      await roleBinding(api, 'other', 'cm', { kind: 'ClusterRole', name: 'cm-reader' });
      assert.equal(await status(api, 'GET', CM('other')), 200);
      assert.equal(await status(api, 'GET', CM('default')), 403);
    });
  });

  it('a ClusterRoleBinding grants in every namespace, across all namespaces and at cluster scope', async () => {
    await withServer(async (api) => {
      await clusterRole(api, 'reader', [rule(['list'], ['configmaps', 'namespaces'])]);
      await clusterRoleBinding(api, 'reader', 'reader');
      for (const p of [CM('default'), CM('other'), '/api/v1/configmaps', '/api/v1/namespaces'])
        assert.equal(await status(api, 'GET', p), 200, p);
      assert.equal(await status(api, 'GET', '/api/v1/secrets'), 403);
    });
  });

  it('Group subjects match the user groups, such as every ServiceAccount of a namespace', async () => {
    await withServer(async (api) => {
      await clusterRole(api, 'reader', [rule(['list'], ['configmaps'])]);
      await clusterRoleBinding(api, 'reader', 'reader', [
        { kind: 'Group', name: 'system:serviceaccounts:default', apiGroup: 'rbac.authorization.k8s.io' },
      ]);
      assert.equal(await status(api, 'GET', CM('default')), 200);
      assert.equal(await status(api, 'GET', CM('default'), sa('other', 'op')), 403);
    });
  });

  it('User subjects match the user name exactly', async () => {
    await withServer(async (api) => {
      await clusterRole(api, 'reader', [rule(['list'], ['configmaps'])]);
      await clusterRoleBinding(api, 'reader', 'reader', [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }]);
      assert.equal(await status(api, 'GET', CM('default'), { username: 'jane', groups: ['system:authenticated'] }), 200);
      assert.equal(await status(api, 'GET', CM('default'), { username: 'janet', groups: ['system:authenticated'] }), 403);
    });
  });

  it('resourceNames allow get of the named objects only, and a list or watch narrowed to one by metadata.name', async () => {
    await withServer(async (api) => {
      await admin(api, CM('default'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mine' } });
      await admin(api, CM('default'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'theirs' } });
      await role(api, 'default', 'mine', [rule(['get', 'list'], ['configmaps'], [''], { resourceNames: ['mine'] })]);
      await roleBinding(api, 'default', 'mine', { kind: 'Role', name: 'mine' });
      assert.equal(await status(api, 'GET', CM('default', 'mine')), 200);
      assert.equal(await status(api, 'GET', CM('default', 'theirs')), 403);
      assert.equal(await status(api, 'GET', CM('default')), 403);
      assert.equal(await status(api, 'GET', `${CM('default')}?fieldSelector=metadata.name%3Dmine`), 200);
    });
  });

  it('a subresource is its own resource: configmaps/status allows neither configmaps nor pods/log', async () => {
    await withServer(async (api) => {
      await role(api, 'default', 'status', [rule(['get'], ['configmaps/status'])]);
      await roleBinding(api, 'default', 'status', { kind: 'Role', name: 'status' });
      const r = await call(api, 'GET', `${CM('default', 'x')}/status`, OP);
      assert.notEqual(r.status, 403); // authorized (the server then answers 404: no such subresource or object)
      const denied = await call(api, 'GET', CM('default', 'x'), OP);
      assert.equal(denied.status, 403);
      assert.match(
        denied.body.message,
        /^configmaps "x" is forbidden: User "system:serviceaccount:default:op" cannot get resource "configmaps" in API group "" in the namespace "default"$/,
      );
      const sub = await call(api, 'GET', '/api/v1/namespaces/default/pods/p/log', OP);
      assert.match(sub.body.message, /cannot get resource "pods\/log"/);
    });
  });

  it('*/scale allows the scale subresource of any resource, and * allows subresources too', async () => {
    await withServer(async (api) => {
      await role(api, 'default', 'scaler', [rule(['get'], ['*/scale'], ['*'])]);
      await roleBinding(api, 'default', 'scaler', { kind: 'Role', name: 'scaler' });
      assert.notEqual(await status(api, 'GET', '/apis/apps/v1/namespaces/default/deployments/d/scale'), 403);
      assert.equal(await status(api, 'GET', '/apis/apps/v1/namespaces/default/deployments/d'), 403);
      await role(api, 'other', 'all', [rule(['get'], ['*'], ['apps'])]);
      await roleBinding(api, 'other', 'all', { kind: 'Role', name: 'all' });
      assert.notEqual(await status(api, 'GET', '/apis/apps/v1/namespaces/other/deployments/d/status'), 403);
      assert.equal(await status(api, 'GET', '/api/v1/namespaces/other/configmaps/c'), 403);
    });
  });

  it('wildcard verbs and API groups match every verb and group', async () => {
    await withServer(async (api) => {
      await role(api, 'default', 'any', [rule(['*'], ['configmaps', 'deployments'], ['*'])]);
      await roleBinding(api, 'default', 'any', { kind: 'Role', name: 'any' });
      assert.equal(await status(api, 'POST', CM('default'), OP, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }), 201);
      assert.equal(await status(api, 'PATCH', CM('default', 'c'), OP, { data: { a: 'b' } }), 200);
      assert.equal(await status(api, 'DELETE', CM('default')), 200);
      assert.equal(await status(api, 'GET', '/apis/apps/v1/namespaces/default/deployments'), 200);
    });
  });

  it('derives the verb as kube-apiserver does: list, watch, deletecollection, patch, update', async () => {
    await withServer(async (api) => {
      const message = async (method: string, path: string) =>
        (await call(api, method, path, OP, method === 'GET' || method === 'DELETE' ? undefined : {})).body.message as string;
      assert.match(await message('GET', CM('default')), /cannot list resource/);
      assert.match(await message('GET', `${CM('default')}?watch=true`), /cannot watch resource/);
      assert.match(await message('GET', '/api/v1/watch/namespaces/default/configmaps'), /cannot watch resource/);
      assert.match(await message('DELETE', CM('default')), /cannot deletecollection resource/);
      assert.match(await message('DELETE', CM('default', 'c')), /cannot delete resource/);
      assert.match(await message('PATCH', CM('default', 'c')), /cannot patch resource/);
      assert.match(await message('PUT', CM('default', 'c')), /cannot update resource/);
      assert.match(await message('POST', CM('default')), /cannot create resource/);
      assert.match(await message('GET', '/api/v1/nodes'), /cannot list resource "nodes" in API group "" at the cluster scope$/);
    });
  });

  it('a request for a resource that does not exist is authorized before it is routed', async () => {
    await withServer(async (api) => {
      assert.equal(await status(api, 'GET', '/apis/example.com/v1/namespaces/default/widgets'), 403);
    });
  });

  it('non-resource URLs match exactly or by a trailing * prefix, through ClusterRoleBindings', async () => {
    await withServer(async (api) => {
      await clusterRole(api, 'metrics', [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/debug/*'] }]);
      await clusterRoleBinding(api, 'metrics', 'metrics');
      const forbidden = await call(api, 'GET', '/logs', OP);
      assert.equal(forbidden.status, 403);
      assert.deepEqual(forbidden.body, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'forbidden: User "system:serviceaccount:default:op" cannot get path "/logs"',
        reason: 'Forbidden',
        details: {},
        code: 403,
      });
      assert.notEqual(await status(api, 'GET', '/metrics'), 403);
      assert.notEqual(await status(api, 'GET', '/debug/pprof'), 403);
    });
  });

  it('the bootstrap roles let every authenticated user read discovery, version and health and review itself', async () => {
    await withServer(async (api) => {
      for (const p of ['/api', '/apis', '/api/v1', '/apis/apps/v1', '/version', '/healthz', '/openapi/v3'])
        assert.equal(await status(api, 'GET', p), 200, p);
      const ssar = await call(api, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', OP, {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'list', resource: 'configmaps', namespace: 'default' } },
      });
      assert.equal(ssar.status, 201);
      assert.equal(ssar.body.status.allowed, false);
      const names = (await call(api, 'GET', `${RBAC}/clusterroles`)).body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
      for (const n of ['cluster-admin', 'system:basic-user', 'system:discovery', 'system:public-info-viewer'])
        assert.ok(names.includes(n), n);
    });
  });

  it('system:masters is allowed everything without any binding being read', async () => {
    await withServer(async (api) => {
      const masters = { username: 'someone', groups: ['system:masters'] };
      assert.equal(await status(api, 'GET', '/api/v1/secrets', masters), 200);
      assert.equal(await status(api, 'GET', '/anything', masters), 404);
    });
  });

  it('a binding to a missing role adds that error to the denial', async () => {
    await withServer(async (api) => {
      await clusterRoleBinding(api, 'dangling', 'nope');
      const r = await call(api, 'GET', CM('default'), OP);
      assert.match(r.body.message, /in the namespace "default": RBAC: clusterrole\.rbac\.authorization\.k8s\.io "nope" not found$/);
    });
  });

  it('an aggregated ClusterRole has the rules of the roles its selectors match, kept up to date', async () => {
    await withServer(async (api) => {
      await clusterRole(api, 'monitoring', [], {
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-monitoring': 'true' } }] },
      });
      await clusterRoleBinding(api, 'monitoring', 'monitoring');
      assert.equal(await status(api, 'GET', CM('default')), 403);
      await admin(api, `${RBAC}/clusterroles`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'cm-part', labels: { 'example.com/aggregate-to-monitoring': 'true' } },
        rules: [rule(['list'], ['configmaps'])],
      });
      await new Promise((r) => setImmediate(r)); // aggregation runs after the write has answered
      const agg = await call(api, 'GET', `${RBAC}/clusterroles/monitoring`);
      assert.deepEqual(agg.body.rules, [rule(['list'], ['configmaps'])]);
      assert.equal(await status(api, 'GET', CM('default')), 200);
      await call(api, 'DELETE', `${RBAC}/clusterroles/cm-part`);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual((await call(api, 'GET', `${RBAC}/clusterroles/monitoring`)).body.rules, []);
      assert.equal(await status(api, 'GET', CM('default')), 403);
    });
  });

  it('records every request of a non-admin user in authorization terms, allowed or not', async () => {
    await withServer(async (api) => {
      api.clearRecording(OP.username);
      await call(api, 'GET', CM('default', 'x'), OP);
      await call(api, 'GET', `${CM('default')}?watch=1`, OP);
      await call(api, 'GET', `${CM('default')}?watch=1`, OP);
      await call(api, 'GET', '/version', OP);
      assert.deepEqual(api.recording(OP.username), [
        { verb: 'get', apiGroup: '', resource: 'configmaps', namespace: 'default', name: 'x' },
        { verb: 'watch', apiGroup: '', resource: 'configmaps', namespace: 'default' },
        { verb: 'get', nonResourceURL: '/version' },
      ]);
    });
  });

  it('impersonation headers act as the named user, when the caller may impersonate', async () => {
    await withServer(async (api) => {
      const asOp = { 'impersonate-user': OP.username };
      const r = await api.handle({
        method: 'GET',
        path: CM('default'),
        user: { username: 'converge-admin', groups: ['system:masters', 'system:authenticated'] },
        headers: asOp,
      });
      assert.equal(r.status, 403);
      assert.match(JSON.parse(r.body).message, /User "system:serviceaccount:default:op" cannot list/);
      const denied = await api.handle({ method: 'GET', path: CM('default'), user: sa('default', 'other'), headers: asOp });
      assert.equal(denied.status, 403);
      assert.match(
        JSON.parse(denied.body).message,
        /^serviceaccounts "op" is forbidden: User "system:serviceaccount:default:other" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "default"$/,
      );
    });
  });
});
