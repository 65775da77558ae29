// ServiceAccount tokens on the socket: a token from the TokenRequest subresource (or the in-process
// call) authenticates as the account, with its groups; an unknown, expired or orphaned token gets
// the 401 kube-apiserver sends; a denied request gets the exact 403 bytes; TokenReview and
// SelfSubjectReview tell the same story.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import { FakeClock } from 'kube-converge/meta';
import { serverFetch } from './helpers.js';

const UNAUTHORIZED =
  '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n';

async function post(srv: RunningApiServer, path: string, body: unknown, token?: string) {
  const r = await serverFetch(srv, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(token !== undefined ? { token } : {}),
  });
  return { status: r.status, body: (await r.json()) as Record<string, any> };
}

async function withAccount(srv: RunningApiServer, name = 'op'): Promise<string> {
  const created = await post(srv, '/api/v1/namespaces/default/serviceaccounts', {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name },
  });
  assert.equal(created.status, 201);
  const tr = await post(srv, `/api/v1/namespaces/default/serviceaccounts/${name}/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: { expirationSeconds: 600 },
  });
  assert.equal(tr.status, 201);
  return tr.body['status'].token as string;
}

describe('ServiceAccount authentication', () => {
  it('refuses a TokenRequest shorter than 10 minutes with the 422 kube-apiserver writes', async () => {
    await using srv = await startApiServer();
    await withAccount(srv);
    const tr = await post(srv, '/api/v1/namespaces/default/serviceaccounts/op/token', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 60 },
    });
    assert.equal(tr.status, 422);
    assert.equal(
      tr.body['message'],
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
    assert.deepEqual(tr.body['details'].causes, [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.expirationSeconds',
        message: 'Invalid value: 60: may not specify a duration less than 10 minutes',
      },
    ]);
  });

  it('authenticates a TokenRequest token as the ServiceAccount with its groups (SelfSubjectReview)', async () => {
    await using srv = await startApiServer();
    const token = await withAccount(srv);
    const whoami = await post(
      srv,
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      token,
    );
    assert.equal(whoami.status, 201);
    assert.equal(whoami.body['status'].userInfo.username, 'system:serviceaccount:default:op');
    assert.deepEqual(whoami.body['status'].userInfo.groups, [
      'system:serviceaccounts',
      'system:serviceaccounts:default',
      'system:authenticated',
    ]);
    const review = await post(srv, '/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token },
    });
    assert.equal(review.body['status'].authenticated, true);
    assert.equal(review.body['status'].user.username, 'system:serviceaccount:default:op');
    const bogus = await post(srv, '/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: 'nope' },
    });
    assert.equal(bogus.body['status'].authenticated, undefined);
  });

  it('answers a token the server never minted with the 401 bytes kube-apiserver writes', async () => {
    await using srv = await startApiServer();
    const r = await serverFetch(srv, '/api/v1/namespaces', { token: 'eyJhbGciOiJub25lIn0.e30.forged' });
    assert.equal(r.status, 401);
    assert.equal(await r.text(), UNAUTHORIZED);
  });

  it('stops authenticating a token once its ServiceAccount is deleted', async () => {
    await using srv = await startApiServer();
    const token = await withAccount(srv);
    assert.equal((await serverFetch(srv, '/api', { token })).status, 200);
    assert.equal((await serverFetch(srv, '/api/v1/namespaces/default/serviceaccounts/op', { method: 'DELETE' })).status, 200);
    assert.equal((await serverFetch(srv, '/api', { token })).status, 401);
  });

  it('stops authenticating a token once it expires on the server clock', async () => {
    const clock = new FakeClock();
    await using srv = await startApiServer({ clock });
    await post(srv, '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'op' } });
    const { token } = srv.issueServiceAccountToken({ namespace: 'default', name: 'op', expirationSeconds: 600 });
    assert.equal((await serverFetch(srv, '/api', { token })).status, 200);
    await clock.advance(600_000);
    assert.equal((await serverFetch(srv, '/api', { token })).status, 401);
  });

  it('refuses an in-process token for a ServiceAccount that does not exist with its 404', async () => {
    await using srv = await startApiServer();
    assert.throws(
      () => srv.issueServiceAccountToken({ namespace: 'default', name: 'ghost' }),
      /404 NotFound: serviceaccounts "ghost" not found/,
    );
  });

  it('answers a denied request with the 403 bytes kube-apiserver writes', async () => {
    await using srv = await startApiServer();
    const token = await withAccount(srv);
    const r = await serverFetch(srv, '/api/v1/namespaces/default/configmaps/settings', { token });
    assert.equal(r.status, 403);
    assert.equal(r.headers.get('content-type'), 'application/json');
    assert.equal(
      await r.text(),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"settings\\" is forbidden: User \\"system:serviceaccount:default:op\\" cannot get resource \\"configmaps\\" in API group \\"\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"name":"settings","kind":"configmaps"},"code":403}\n',
    );
  });
});
