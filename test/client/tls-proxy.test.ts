// TLS (CA, client certificates, insecure, tls-server-name) and proxy-url CONNECT tunnels, over real
// loopback sockets.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NamespaceResource } from 'kube-converge/meta';
import { createClient, loadKubeConfig, NetworkError } from 'kube-converge/client';

let dir: string;
let pem: { ca: string; serverCert: string; serverKey: string; clientCert: string; clientKey: string };
let server: https.Server;
let serverUrl: string;
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A CA, a server certificate for `kubernetes.internal` only (not 127.0.0.1), and a client certificate for `alice`. */
function makeCertificates(): void {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-subj', '/CN=converge-test-ca', '-days', '2');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=DNS:kubernetes.internal\n');
  ssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=kubernetes.internal');
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  );
  ssl('req', ...ec, '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=alice/O=dev');
  ssl('x509', '-req', '-in', 'client.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.crt', '-days', '2');
  const r = (f: string) => readFileSync(join(dir, f), 'utf8');
  pem = {
    ca: r('ca.crt'),
    serverCert: r('server.crt'),
    serverKey: r('server.key'),
    clientCert: r('client.crt'),
    clientKey: r('client.key'),
  };
}

function kubeconfigFor(cluster: Record<string, unknown>, user: Record<string, unknown> = {}): string {
  const f = join(dir, `kc-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    f,
    JSON.stringify({
      clusters: [{ name: 'c', cluster: { server: serverUrl, ...cluster } }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
  return f;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'converge-tls-'));
  makeCertificates();
  server = https.createServer(
    { key: pem.serverKey, cert: pem.serverCert, ca: pem.ca, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ metadata: { name: peer?.subject?.CN ?? 'anonymous' } }));
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  serverUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const whoami = async (kc: string) => {
  const c = createClient({ config: loadKubeConfig({ path: kc }), qps: -1, maxRetries: 0 });
  try {
    return (await c.get(NamespaceResource, { name: 'default' })).metadata.name;
  } finally {
    c.close();
  }
};

describe('TLS', () => {
  it('verifies the server against the kubeconfig CA under tls-server-name and presents the client certificate', async () => {
    const kc = kubeconfigFor(
      { 'certificate-authority-data': b64(pem.ca), 'tls-server-name': 'kubernetes.internal' },
      { 'client-certificate-data': b64(pem.clientCert), 'client-key-data': b64(pem.clientKey) },
    );
    assert.equal(await whoami(kc), 'alice');
  });

  it('presents a client certificate that an exec plugin printed', async () => {
    const plugin = join(dir, 'cert-plugin.cjs');
    writeFileSync(
      plugin,
      `process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential',
      status: { clientCertificateData: process.env.CERT, clientKeyData: process.env.KEY } }));`,
    );
    const kc = kubeconfigFor(
      { 'certificate-authority-data': b64(pem.ca), 'tls-server-name': 'kubernetes.internal' },
      {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: process.execPath,
          args: [plugin],
          env: [
            { name: 'CERT', value: pem.clientCert },
            { name: 'KEY', value: pem.clientKey },
          ],
        },
      },
    );
    assert.equal(await whoami(kc), 'alice');
  });

  it('rejects a server certificate that does not name the host when tls-server-name is absent', async () => {
    const kc = kubeconfigFor({ 'certificate-authority-data': b64(pem.ca) });
    await assert.rejects(whoami(kc), (e: unknown) => e instanceof NetworkError && /altnames|ERR_TLS_CERT_ALTNAME_INVALID/i.test(e.message));
  });

  it('rejects an unknown CA, and accepts anything with insecure-skip-tls-verify', async () => {
    await assert.rejects(whoami(kubeconfigFor({})), (e: unknown) => e instanceof NetworkError && /certificate/i.test(e.message));
    assert.equal(await whoami(kubeconfigFor({ 'insecure-skip-tls-verify': true })), 'anonymous');
  });
});

describe('proxy-url', () => {
  it('tunnels HTTPS and HTTP requests through an HTTP CONNECT proxy', async () => {
    const connects: string[] = [];
    const proxy = http.createServer((_req, res) => {
      res.writeHead(405);
      res.end();
    });
    proxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      connects.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const plain = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"metadata":{"name":"plain"}}');
    });
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    try {
      const kc = kubeconfigFor(
        { 'certificate-authority-data': b64(pem.ca), 'tls-server-name': 'kubernetes.internal', 'proxy-url': proxyUrl },
        { 'client-certificate-data': b64(pem.clientCert), 'client-key-data': b64(pem.clientKey) },
      );
      assert.equal(await whoami(kc), 'alice');
      assert.deepEqual(connects, [new URL(serverUrl).host]);
      const httpClient = createClient({
        config: { server: `http://127.0.0.1:${(plain.address() as AddressInfo).port}`, proxyUrl, qps: -1 },
      });
      assert.equal((await httpClient.get(NamespaceResource, { name: 'x' })).metadata.name, 'plain');
      httpClient.close();
      assert.equal(connects.length, 2);
    } finally {
      for (const s of [proxy, plain]) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
    }
  });

  it('fails with a NetworkError when the proxy refuses the tunnel', async () => {
    const proxy = http.createServer();
    proxy.on('connect', (_req: http.IncomingMessage, client: net.Socket) => client.end('HTTP/1.1 403 Forbidden\r\n\r\n'));
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const c = createClient({
        config: { server: 'http://127.0.0.1:9', proxyUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, qps: -1 },
        maxRetries: 0,
      });
      await assert.rejects(
        c.get(NamespaceResource, { name: 'x' }),
        (e: unknown) => e instanceof NetworkError && /refused CONNECT 127\.0\.0\.1:9: 403/.test(e.message),
      );
      c.close();
    } finally {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
  });
});
