// OwnerReferencesPermissionEnforcement under RBAC: a reference that blocks its owner's deletion needs
// `update` on the owner's finalizers, changing an object's owner references needs `delete` on it, the
// refusals are kube-apiserver's 403s word for word, and the checks are recorded with the user's
// requests. Requests go through the in-process handler with the user the socket would have authenticated.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer, type UserInfo } from 'kube-converge/apiserver';

const OP: UserInfo = {
  username: 'system:serviceaccount:default:op',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
};
const ADMIN: UserInfo = { username: 'converge-admin', groups: ['system:masters', 'system:authenticated'] };
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const CM = '/api/v1/namespaces/default/configmaps';
const SECRETS = '/api/v1/namespaces/default/secrets';

async function call(api: ApiServer, method: string, path: string, user: UserInfo | undefined, body?: unknown) {
  const r = await api.handle({
    method,
    path,
    ...(user ? { user } : {}),
    headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: JSON.parse(r.body) as Record<string, any> };
}

/** A server where `op` holds `grants` cluster-wide, with a ConfigMap `owner` in default to point references at. */
async function server(
  grants: { resource: string; verbs: string[]; apiGroups?: string[] }[],
): Promise<{ api: ApiServer; ownerUid: string }> {
  const api = createApiServer();
  const admin = async (path: string, body: unknown) => {
    const r = await call(api, 'POST', path, undefined, body);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body;
  };
  await admin(`${RBAC}/clusterroles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'op' },
    rules: grants.map((g) => ({ apiGroups: g.apiGroups ?? [''], resources: [g.resource], verbs: g.verbs })),
  });
  await admin(`${RBAC}/clusterrolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'op' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'op' },
    subjects: [{ kind: 'ServiceAccount', name: 'op', namespace: 'default' }],
  });
  const owner = await admin(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } });
  return { api, ownerUid: owner.metadata.uid };
}

const ownerRef = (uid: string, extra: object = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid, ...extra });
const secret = (name: string, ownerReferences: object[]) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, ownerReferences } });
const BLOCKING = { controller: true, blockOwnerDeletion: true };

const forbidden = (name: string, why: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `secrets "${name}" is forbidden: ${why}`,
  reason: 'Forbidden',
  details: { name, kind: 'secrets' },
  code: 403,
});

describe('OwnerReferencesPermissionEnforcement', () => {
  it('lets a user with update on the owner’s finalizers create an object whose reference blocks the owner’s deletion, and records that check', async () => {
    const { api, ownerUid } = await server([
      { resource: 'secrets', verbs: ['create'] },
      { resource: 'configmaps/finalizers', verbs: ['update'] },
    ]);
    try {
      const r = await call(api, 'POST', SECRETS, OP, secret('child', [ownerRef(ownerUid, BLOCKING)]));
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.deepEqual(api.recording(OP.username), [
        { verb: 'create', apiGroup: '', resource: 'secrets', namespace: 'default' },
        { verb: 'update', apiGroup: '', resource: 'configmaps', subresource: 'finalizers', namespace: 'default', name: 'owner' },
      ]);
    } finally {
      api.stop();
    }
  });

  it('refuses it without that permission, with the message kube-apiserver writes, and stores nothing', async () => {
    const { api, ownerUid } = await server([{ resource: 'secrets', verbs: ['create', 'get'] }]);
    try {
      const r = await call(api, 'POST', SECRETS, OP, secret('child', [ownerRef(ownerUid, BLOCKING)]));
      assert.equal(r.status, 403);
      assert.deepEqual(
        r.body,
        forbidden('child', "cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>"),
      );
      assert.equal((await call(api, 'GET', `${SECRETS}/child`, OP)).status, 404);
      // The same reference without blockOwnerDeletion needs nothing beyond create.
      assert.equal((await call(api, 'POST', SECRETS, OP, secret('child', [ownerRef(ownerUid, { controller: true })]))).status, 201);
    } finally {
      api.stop();
    }
  });

  it('refuses an update that changes owner references without delete on the object, and allows it with delete', async () => {
    const { api, ownerUid } = await server([{ resource: 'secrets', verbs: ['create', 'get', 'update', 'patch'] }]);
    try {
      assert.equal((await call(api, 'POST', SECRETS, OP, secret('child', []))).status, 201);
      const adopt = { metadata: { ownerReferences: [ownerRef(ownerUid)] } };
      const r = await call(api, 'PATCH', `${SECRETS}/child`, OP, adopt);
      assert.equal(r.status, 403);
      assert.deepEqual(r.body, forbidden('child', "cannot set an ownerRef on a resource you can't delete: , <nil>"));
      // Other changes to an object with owner references need no delete.
      assert.equal((await call(api, 'PATCH', `${SECRETS}/child`, ADMIN, adopt)).status, 200);
      assert.equal((await call(api, 'PATCH', `${SECRETS}/child`, OP, { metadata: { labels: { a: 'b' } } })).status, 200);
      assert.deepEqual(
        api.recording(OP.username).filter((x) => x.verb === 'delete'),
        [{ verb: 'delete', apiGroup: '', resource: 'secrets', namespace: 'default', name: 'child' }],
      );
    } finally {
      api.stop();
    }
    const granted = await server([{ resource: 'secrets', verbs: ['create', 'patch', 'delete'] }]);
    try {
      assert.equal((await call(granted.api, 'POST', SECRETS, OP, secret('child', []))).status, 201);
      const adopt = { metadata: { ownerReferences: [ownerRef(granted.ownerUid)] } };
      assert.equal((await call(granted.api, 'PATCH', `${SECRETS}/child`, OP, adopt)).status, 200);
    } finally {
      granted.api.stop();
    }
  });

  it('asks for the finalizers only of references that newly block, with the authorizer’s errors in the reason', async () => {
    const { api, ownerUid } = await server([
      { resource: 'secrets', verbs: ['create', 'patch', 'delete'] },
      { resource: 'configmaps/finalizers', verbs: ['update'] },
    ]);
    try {
      assert.equal((await call(api, 'POST', SECRETS, OP, secret('child', [ownerRef(ownerUid, BLOCKING)]))).status, 201);
      // From here on op may not update finalizers, and one of its bindings names a role that does not exist.
      const rules = [{ apiGroups: [''], resources: ['secrets'], verbs: ['patch', 'delete'] }];
      assert.equal((await call(api, 'PATCH', `${RBAC}/clusterroles/op`, undefined, { rules })).status, 200);
      const r0 = await call(api, 'POST', `${RBAC}/clusterrolebindings`, undefined, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'gone' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'gone' },
        subjects: [{ kind: 'ServiceAccount', name: 'op', namespace: 'default' }],
      });
      assert.equal(r0.status, 201);
      api.clearRecording(OP.username);
      // The blocking reference stays as it was and a non-blocking one joins it: delete is checked, finalizers are not.
      const other = { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: 'u-2' };
      const two = [ownerRef(ownerUid, BLOCKING), other];
      assert.equal((await call(api, 'PATCH', `${SECRETS}/child`, OP, { metadata: { ownerReferences: two } })).status, 200);
      assert.deepEqual(
        api.recording(OP.username).map((x) => `${x.verb} ${x.resource}${x.subresource ? `/${x.subresource}` : ''}`),
        ['patch secrets', 'delete secrets'],
      );
      const blocking = [ownerRef(ownerUid, BLOCKING), { ...other, blockOwnerDeletion: true }];
      const r = await call(api, 'PATCH', `${SECRETS}/child`, OP, { metadata: { ownerReferences: blocking } });
      assert.equal(r.status, 403);
      assert.equal(
        r.body.message,
        'secrets "child" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource ' +
          `you can't set finalizers on: RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found, <nil>`,
      );
      assert.deepEqual(api.recording(OP.username).at(-1), {
        verb: 'update',
        apiGroup: '',
        resource: 'configmaps',
        subresource: 'finalizers',
        namespace: 'default',
        name: 'other',
      });
    } finally {
      api.stop();
    }
  });

  it('maps the owner’s kind to its resource: a cluster-scoped owner is checked at cluster scope, an unknown kind is refused', async () => {
    const { api } = await server([
      { resource: 'secrets', verbs: ['create'] },
      { resource: 'namespaces/finalizers', verbs: ['update'] },
    ]);
    try {
      const ns = { apiVersion: 'v1', kind: 'Namespace', name: 'default', uid: 'ns-uid', blockOwnerDeletion: true };
      assert.equal((await call(api, 'POST', SECRETS, OP, secret('in-ns', [ns]))).status, 201);
      assert.deepEqual(api.recording(OP.username).at(-1), {
        verb: 'update',
        apiGroup: '',
        resource: 'namespaces',
        subresource: 'finalizers',
        name: 'default',
      });
      const unknown = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'w-uid', blockOwnerDeletion: true };
      const r = await call(api, 'POST', SECRETS, OP, secret('widget-child', [unknown]));
      assert.equal(r.status, 403);
      assert.deepEqual(
        r.body,
        forbidden(
          'widget-child',
          'cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: ' +
            'no matches for kind "Widget" in version "example.com/v1"',
        ),
      );
    } finally {
      api.stop();
    }
  });

  it('asks nothing of the admin or the trusted in-process caller', async () => {
    const { api, ownerUid } = await server([]);
    try {
      assert.equal((await call(api, 'POST', SECRETS, ADMIN, secret('a', [ownerRef(ownerUid, BLOCKING)]))).status, 201);
      assert.equal((await call(api, 'POST', SECRETS, undefined, secret('b', [ownerRef(ownerUid, BLOCKING)]))).status, 201);
      assert.deepEqual(api.recording(ADMIN.username), []);
    } finally {
      api.stop();
    }
  });
});
