// Connection deadlines over both transports: a client that never finishes a request's headers is
// answered 408 and closed once the headers timeout has passed, over HTTPS as over plain HTTP; a
// client that sends its headers in time is served, and an idle kept-alive connection is not cut by
// the headers timeout; stop() closes every kind of open connection at once. Node checks these
// deadlines on its own timers, not on the server's Clock, so the short timeouts here are real ones.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent as HttpsAgent } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect as tlsConnect } from 'node:tls';
import { InvalidOptionError } from 'kube-converge/meta';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import { serverRequest } from './helpers.js';

const HEADERS_TIMEOUT_MS = 200;

/** A bound on each test, so a connection the server fails to close fails the test instead of hanging it. */
const BOUND = { timeout: 10_000 };

/** A raw connection to `srv`: TLS (handshake completed, the server's certificate verified) unless it serves plain HTTP. */
async function openConnection(srv: RunningApiServer): Promise<Socket> {
  const { hostname: host, port } = new URL(srv.url);
  const socket =
    srv.caCertificate === undefined
      ? netConnect({ host, port: Number(port) })
      : tlsConnect({ host, port: Number(port), ca: srv.caCertificate });
  await new Promise<void>((resolve, reject) => {
    socket.once(srv.caCertificate === undefined ? 'connect' : 'secureConnect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Everything the server sent on `socket` until the connection closed. */
function untilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', () => {}); // a reset after the server gave up is still a close
    socket.once('close', () => resolve(received));
  });
}

/** Sends a request's headers one line every `HEADERS_TIMEOUT_MS / 4`, never the blank line that ends them. */
function trickleHeaders(socket: Socket): void {
  socket.write('GET /version HTTP/1.1\r\nhost: converge\r\n');
  let n = 0;
  const t = setInterval(() => socket.write(`x-slow-${n++}: 1\r\n`), HEADERS_TIMEOUT_MS / 4);
  socket.once('close', () => clearInterval(t));
}

describe('connection deadlines', () => {
  it(
    'answers 408 and closes an HTTPS connection that completes the handshake and sends nothing, once the headers timeout has passed',
    BOUND,
    async () => {
      await using srv = await startApiServer({ headersTimeoutMs: HEADERS_TIMEOUT_MS });
      const opened = performance.now();
      const socket = await openConnection(srv);
      const received = await untilClosed(socket);
      assert.match(received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.ok(performance.now() - opened >= HEADERS_TIMEOUT_MS, 'closed before the headers timeout');
    },
  );

  it('answers 408 and closes an HTTPS connection that trickles its headers, once the headers timeout has passed', BOUND, async () => {
    await using srv = await startApiServer({ headersTimeoutMs: HEADERS_TIMEOUT_MS });
    // The server's deadline runs from when it accepted the connection, which may be well before the
    // client sees its handshake complete on a loaded machine: the bound is measured from before connecting.
    const opened = performance.now();
    const socket = await openConnection(srv);
    trickleHeaders(socket);
    const received = await untilClosed(socket);
    assert.match(received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.ok(performance.now() - opened >= HEADERS_TIMEOUT_MS, 'closed before the headers timeout');
  });

  it('answers 408 and closes a plain HTTP connection that trickles its headers, as over HTTPS', BOUND, async () => {
    await using srv = await startApiServer({ insecureHttp: true, headersTimeoutMs: HEADERS_TIMEOUT_MS });
    // The server's deadline runs from when it accepted the connection, which may be well before the
    // client sees its handshake complete on a loaded machine: the bound is measured from before connecting.
    const opened = performance.now();
    const socket = await openConnection(srv);
    trickleHeaders(socket);
    const received = await untilClosed(socket);
    assert.match(received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.ok(performance.now() - opened >= HEADERS_TIMEOUT_MS, 'closed before the headers timeout');
  });

  it(
    'serves requests sent in time on one kept-alive HTTPS connection, left idle for longer than the headers timeout between them',
    BOUND,
    async () => {
      await using srv = await startApiServer({ headersTimeoutMs: HEADERS_TIMEOUT_MS });
      const agent = new HttpsAgent({ keepAlive: true, maxSockets: 1 });
      const get = (): Promise<{ status: number; reused: boolean }> =>
        new Promise((resolve, reject) => {
          const req = serverRequest(srv, '/api/v1/namespaces', { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
          });
          req.on('error', reject);
          req.end();
        });
      try {
        assert.deepEqual(await get(), { status: 200, reused: false });
        // Node's deadline checks run on real timers, so only real idle time shows they leave this connection alone.
        await sleep(HEADERS_TIMEOUT_MS * 2);
        assert.deepEqual(await get(), { status: 200, reused: true });
      } finally {
        agent.destroy();
      }
    },
  );

  it(
    'stop() closes a silent TLS connection, a TCP connection that never starts TLS and an idle kept-alive one at once',
    BOUND,
    async () => {
      const srv = await startApiServer();
      const silent = untilClosed(await openConnection(srv));
      const { hostname, port } = new URL(srv.url);
      const tcp = netConnect({ host: hostname, port: Number(port) });
      await new Promise((resolve) => tcp.once('connect', resolve));
      const bare = untilClosed(tcp);
      const kept = await openConnection(srv);
      kept.write('GET /version HTTP/1.1\r\nhost: converge\r\n\r\n');
      await new Promise((resolve) => kept.once('data', resolve));
      const idle = untilClosed(kept);
      await srv.stop();
      await Promise.all([silent, bare, idle]);
    },
  );

  it('refuses a headers timeout that is not a positive whole number of milliseconds or exceeds the whole request timeout', async () => {
    for (const headersTimeoutMs of [0, 2.5, 300_001]) {
      await assert.rejects(startApiServer({ headersTimeoutMs }), InvalidOptionError, `headersTimeoutMs ${headersTimeoutMs}`);
    }
  });
});
