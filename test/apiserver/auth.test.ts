// Imports apiserver's internal (private) face: machinery shared between layers that the package does not export.
// HTTPS and authentication on the socket: the serving certificate chains to the server's CA, every
// request needs the admin token except anonymous reads of health and version, and plain HTTP only
// when asked for, with a warning and the token still required.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import 'reflect-metadata';
import { X509CertificateGenerator } from '@peculiar/x509';
import { createApiServer, startApiServer } from 'kube-converge/apiserver';
import { listen } from '../../src/apiserver/internal.js';
import { createClient, isUnauthorized, loadKubeConfig, NetworkError } from 'kube-converge/client';
import { ConfigMapResource, type LogFields, type Logger } from 'kube-converge/meta';
import { restConfigFor } from 'kube-converge/testing';
import { serverFetch } from './helpers.js';

const UNAUTHORIZED = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

function recordingLogger(lines: { msg: string; fields: LogFields }[]): Logger {
  const keep = (fields: LogFields, msg: string): void => void lines.push({ msg, fields });
  const logger: Logger = { debug: () => {}, info: () => {}, warn: keep, error: keep, child: () => logger };
  return logger;
}

describe('authentication', () => {
  it('answers a request without a token with 401 and the Status kube-apiserver sends', async () => {
    await using srv = await startApiServer();
    const r = await serverFetch(srv, '/api/v1/namespaces/default/configmaps', { token: null });
    assert.equal(r.status, 401);
    assert.deepEqual(await r.json(), UNAUTHORIZED);
  });

  it('answers a wrong token with 401, on API paths and on health alike', async () => {
    await using srv = await startApiServer();
    for (const path of ['/api/v1/namespaces', '/healthz']) {
      const r = await serverFetch(srv, path, { token: `${srv.token}x` });
      assert.equal(r.status, 401, path);
      assert.deepEqual(await r.json(), UNAUTHORIZED);
    }
    const basic = await serverFetch(srv, '/api', {
      token: null,
      headers: { authorization: `Basic ${Buffer.from(`admin:${srv.token}`).toString('base64')}` },
    });
    assert.equal(basic.status, 401);
  });

  it('refuses a write without a token and stores nothing', async () => {
    await using srv = await startApiServer();
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sneaky' } });
    const r = await serverFetch(srv, '/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      token: null,
      headers: { 'content-type': 'application/json' },
      body,
    });
    assert.equal(r.status, 401);
    const list = await srv.handle({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
    assert.deepEqual(JSON.parse(list.body).items, []);
  });

  it('lets anonymous users read health and version, as system:public-info-viewer does, and nothing else', async () => {
    await using srv = await startApiServer();
    for (const path of ['/healthz', '/livez', '/readyz', '/readyz?verbose', '/version']) {
      assert.equal((await serverFetch(srv, path, { token: null })).status, 200, path);
    }
    for (const path of ['/api', '/apis', '/openapi/v2', '/healthz/ping', '/nonexistent']) {
      assert.equal((await serverFetch(srv, path, { token: null })).status, 401, path);
    }
  });

  it('accepts the admin token with any capitalisation of the Bearer scheme, and keeps the connection usable after a 401', async () => {
    await using srv = await startApiServer();
    assert.equal((await serverFetch(srv, '/api', { token: null, headers: { authorization: `bearer ${srv.token}` } })).status, 200);
    assert.equal((await serverFetch(srv, '/api', { token: null, method: 'POST', body: 'x'.repeat(100_000) })).status, 401);
    assert.equal((await serverFetch(srv, '/api')).status, 200);
  });

  it('keeps the in-process handle() working without credentials (a caller in the process is trusted)', async () => {
    await using srv = await startApiServer();
    const r = await srv.handle({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
    assert.equal(r.status, 200);
  });

  it('names the user of a service-account token in a TokenReview, as before', async () => {
    await using srv = await startApiServer();
    await srv.handle({
      method: 'POST',
      path: '/api/v1/namespaces/default/serviceaccounts',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } }),
    });
    const tr = await serverFetch(srv, '/api/v1/namespaces/default/serviceaccounts/robot/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }),
    });
    const token = ((await tr.json()) as { status: { token: string } }).status.token;
    const review = await serverFetch(srv, '/apis/authentication.k8s.io/v1/tokenreviews', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } }),
    });
    assert.equal(
      ((await review.json()) as { status: { user: { username: string } } }).status.user.username,
      'system:serviceaccount:default:robot',
    );
  });

  it('refuses to listen with an empty admin token, which would lock every client out', () => {
    const api = createApiServer();
    try {
      assert.throws(() => listen(api, { adminToken: '' }), { code: 'CONVERGE_INVALID_OPTION', path: 'adminToken' });
    } finally {
      api.stop();
    }
  });

  it("gives every server its own token: one server does not accept another one's", async () => {
    await using a = await startApiServer();
    await using b = await startApiServer();
    assert.notEqual(a.token, b.token);
    assert.equal((await serverFetch(b, '/api', { token: a.token })).status, 401);
  });
});

describe('TLS', () => {
  it('serves HTTPS with a certificate the written kubeconfig verifies, and the client uses it unedited', async () => {
    await using srv = await startApiServer();
    assert.match(srv.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const cluster = srv.kubeconfig.clusters[0]!.cluster;
    assert.equal(Buffer.from(cluster['certificate-authority-data']!, 'base64').toString(), srv.caCertificate);
    assert.equal(srv.kubeconfig.users[0]!.user.token, srv.token);
    const dir = await mkdtemp(join(tmpdir(), 'converge-tls-'));
    try {
      await srv.writeKubeconfig(join(dir, 'kubeconfig'));
      const client = createClient({ config: { ...loadKubeConfig({ path: join(dir, 'kubeconfig') }), qps: -1 } });
      try {
        await client.create(ConfigMapResource, { metadata: { name: 'over-tls', namespace: 'default' } });
      } finally {
        client.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('certifies 127.0.0.1, ::1, localhost and the host the server binds', async () => {
    await using srv = await startApiServer({ host: '127.0.0.2' });
    const san = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.2', port: Number(new URL(srv.url).port), ca: srv.caCertificate, servername: '' }, () => {
        resolve(socket.getPeerCertificate().subjectaltname ?? '');
        socket.end();
      });
      socket.on('error', reject);
    });
    assert.deepEqual(san.split(', ').sort(), [
      'DNS:localhost',
      'IP Address:0:0:0:0:0:0:0:1',
      'IP Address:127.0.0.1',
      'IP Address:127.0.0.2',
    ]);
    const client = createClient({ config: restConfigFor(srv) });
    try {
      assert.equal((await client.list(ConfigMapResource, { namespace: 'default' })).items.length, 0);
    } finally {
      client.close();
    }
  });

  it('serves localhost and ::1 with the same certificate', async () => {
    await using srv = await startApiServer({ host: '::1' });
    assert.match(srv.url, /^https:\/\/\[::1\]:\d+$/);
    const client = createClient({ config: restConfigFor(srv) });
    try {
      assert.equal((await client.list(ConfigMapResource, { namespace: 'default' })).items.length, 0);
    } finally {
      client.close();
    }
  });

  it('makes the client reject a server whose certificate the configured CA did not sign', async () => {
    await using srv = await startApiServer();
    // Any other CA: only the process's own CA signed the server's certificate.
    const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ])) as webcrypto.CryptoKeyPair;
    const otherCa = (
      await X509CertificateGenerator.createSelfSigned({
        name: 'CN=someone-else',
        keys,
        signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      })
    ).toString('pem');
    const client = createClient({ config: { ...restConfigFor(srv), tls: { ca: otherCa } }, maxRetries: 0 });
    try {
      await assert.rejects(
        client.list(ConfigMapResource, { namespace: 'default' }),
        (e) => e instanceof NetworkError && /certificate/i.test(e.message),
      );
    } finally {
      client.close();
    }
    const noCa = createClient({ config: { ...restConfigFor(srv), tls: {} }, maxRetries: 0 });
    try {
      await assert.rejects(noCa.list(ConfigMapResource, { namespace: 'default' }), (e) => e instanceof NetworkError);
    } finally {
      noCa.close();
    }
  });

  it('reuses the process CA: every server is signed by the same CA, so a second start makes no keys', async () => {
    await using a = await startApiServer();
    await using b = await startApiServer();
    assert.equal(a.caCertificate, b.caCertificate);
  });
});

describe('insecureHttp', () => {
  it('serves plain HTTP only when asked, logs a warning, and still requires the token', async () => {
    const lines: { msg: string; fields: LogFields }[] = [];
    await using srv = await startApiServer({ insecureHttp: true, logger: recordingLogger(lines) });
    assert.match(srv.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(srv.caCertificate, undefined);
    assert.equal(srv.kubeconfig.clusters[0]!.cluster['certificate-authority-data'], undefined);
    assert.ok(
      lines.some((l) => /plain HTTP/.test(l.msg)),
      JSON.stringify(lines),
    );
    assert.equal((await fetch(`${srv.url}/api`)).status, 401);
    assert.equal((await fetch(`${srv.url}/api`, { headers: { authorization: `Bearer ${srv.token}` } })).status, 200);
    const client = createClient({ config: { server: srv.url, qps: -1 }, maxRetries: 0 });
    try {
      await assert.rejects(client.list(ConfigMapResource, { namespace: 'default' }), (e) => isUnauthorized(e));
    } finally {
      client.close();
    }
  });

  it('warns when listening beyond loopback, and still requires the token there', async () => {
    const lines: { msg: string; fields: LogFields }[] = [];
    await using srv = await startApiServer({ host: '0.0.0.0', logger: recordingLogger(lines) });
    assert.ok(
      lines.some((l) => /beyond loopback/.test(l.msg)),
      JSON.stringify(lines),
    );
    assert.match(srv.url, /^https:\/\/127\.0\.0\.1:\d+$/, 'a wildcard bind is dialled, and certified, as loopback');
    assert.equal((await serverFetch(srv, '/api', { token: null })).status, 401);
    assert.equal((await serverFetch(srv, '/api')).status, 200);
  });
});
