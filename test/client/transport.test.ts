// Imports the client's private token bucket, to drive the transport's QPS and burst on a fake clock.
// The transport's retry, Retry-After and QPS/burst rules over a loopback fixture server, waits driven
// by a FakeClock.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, FakeClock } from 'kube-converge/meta';
import { createClient, isTooManyRequests, NetworkError, type AuthProvider } from 'kube-converge/client';
import { type RequestMetric } from '../../src/client/internal.js';
import { startFixtureServer, sendJson } from './fixture-server.js';
import { TokenBucketRateLimiter } from '../../src/client/rate-limiter.js';

const tooMany = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  reason: 'TooManyRequests',
  code: 429,
  message: 'slow down',
};
const nn = { namespace: 'default', name: 'a' };

/**
 * Advances the fake clock in steps until `p` settles (real sockets need real turns in between). The
 * clock moves only while something waits on it, so a slow round trip on a loaded machine costs real
 * turns (up to about 2 s of them), not fake time.
 */
async function settle<T>(clock: FakeClock, p: Promise<T>, stepMs: number, maxTurns = 400): Promise<T> {
  let done = false;
  const q = p.finally(() => {
    done = true;
  });
  for (let i = 0; i < maxTurns && !done; i++) {
    await new Promise((r) => setTimeout(r, 5));
    if (!done && clock.pendingTimers() > 0) await clock.advance(stepMs);
  }
  return q;
}

describe('transport', () => {
  it('waits Retry-After on the injected clock after a 429 and then succeeds, for writes too', async () => {
    let calls = 0;
    await using srv = await startFixtureServer((_req, res) => {
      calls++;
      if (calls <= 2) sendJson(res, 429, tooMany, { 'retry-after': '3' });
      else sendJson(res, 201, { metadata: { name: 'a' } });
    });
    const clock = new FakeClock();
    const c = createClient({ server: srv.url, qps: -1, clock });
    const start = clock.now();
    const created = await settle(clock, c.create(ConfigMapResource, { metadata: { namespace: 'default', name: 'a' } } as never), 1000);
    assert.equal(created.metadata.name, 'a');
    assert.equal(calls, 3);
    assert.ok(clock.now() - start >= 6000, `waited ${clock.now() - start} ms`);
    c.close();
  });

  it('gives up after maxRetries 429s with the TooManyRequests StatusError', async () => {
    await using srv = await startFixtureServer((_req, res) => sendJson(res, 429, tooMany, { 'retry-after': '1' }));
    const clock = new FakeClock();
    const c = createClient({ server: srv.url, qps: -1, clock, maxRetries: 2 });
    const err = await settle(
      clock,
      c.get(ConfigMapResource, nn).catch((e: unknown) => e),
      1000,
    );
    assert.ok(isTooManyRequests(err));
    assert.equal(srv.requests.length, 3);
    c.close();
  });

  it('retries a GET on a refused connection but never a POST', async () => {
    const srv = await startFixtureServer(() => undefined);
    await srv.stop();
    const clock = new FakeClock();
    const metrics: RequestMetric[] = [];
    const c = createClient({ server: srv.url, qps: -1, clock, maxRetries: 3, onRequest: (m) => metrics.push(m) });
    const getErr = await settle(
      clock,
      c.get(ConfigMapResource, nn).catch((e: unknown) => e),
      1000,
    );
    assert.ok(getErr instanceof NetworkError);
    assert.equal(metrics.length, 4);
    metrics.length = 0;
    const postErr = await settle(
      clock,
      c.create(ConfigMapResource, { metadata: { namespace: 'default', name: 'a' } } as never).catch((e: unknown) => e),
      1000,
    );
    assert.ok(postErr instanceof NetworkError);
    assert.deepEqual(
      metrics.map((m) => [m.verb, m.code]),
      [['POST', '<error>']],
    );
    c.close();
  });

  it('reports every attempt to onRequest with verb, host and code', async () => {
    await using srv = await startFixtureServer((req, res) => sendJson(res, req.method === 'GET' ? 200 : 404, { metadata: {} }));
    const metrics: RequestMetric[] = [];
    const c = createClient({ server: srv.url, qps: -1, onRequest: (m) => metrics.push(m) });
    await c.get(ConfigMapResource, nn);
    await c.delete(ConfigMapResource, nn).catch(() => undefined);
    assert.deepEqual(
      metrics.map(({ verb, host, code }) => ({ verb, host, code })),
      [
        { verb: 'GET', host: new URL(srv.url).host, code: '200' },
        { verb: 'DELETE', host: new URL(srv.url).host, code: '404' },
      ],
    );
    assert.ok(metrics.every((m) => m.durationMs >= 0));
    c.close();
  });

  it('fails a request that outlives timeoutMs with a NetworkError, timed on the injected clock', async () => {
    await using srv = await startFixtureServer(() => undefined);
    const clock = new FakeClock();
    const c = createClient({ config: { server: srv.url, qps: -1, timeoutMs: 5000 }, clock, maxRetries: 0 });
    const err = await settle(
      clock,
      c.get(ConfigMapResource, nn).catch((e: unknown) => e),
      1000,
    );
    assert.ok(err instanceof NetworkError);
    assert.match(err.message, /timed out after 5000 ms/);
    c.close();
  });

  it('rejects with the caller signal reason when it aborts mid-request', async () => {
    await using srv = await startFixtureServer(() => undefined);
    const c = createClient({ server: srv.url, qps: -1 });
    const ac = new AbortController();
    const p = c.get(ConfigMapResource, nn, { signal: ac.signal });
    const reason = new Error('stop');
    setTimeout(() => ac.abort(reason), 10);
    await assert.rejects(p, (e) => e === reason);
    c.close();
  });

  it('refreshes credentials after a 401 and retries once with the new ones', async () => {
    await using srv = await startFixtureServer((req, res) => {
      if (req.headers.authorization === 'Bearer new') sendJson(res, 200, { metadata: { name: 'a' } });
      else sendJson(res, 401, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Unauthorized', code: 401 });
    });
    let token = 'old';
    let refreshes = 0;
    const auth: AuthProvider = {
      credentials: async () => ({ headers: { authorization: `Bearer ${token}` } }),
      refresh: async () => {
        refreshes++;
        token = 'new';
        return true;
      },
    };
    const c = createClient({ config: { server: srv.url, qps: -1, auth } });
    assert.equal((await c.get(ConfigMapResource, nn)).metadata.name, 'a');
    assert.equal(refreshes, 1);
    assert.deepEqual(
      srv.requests.map((r) => r.headers.authorization),
      ['Bearer old', 'Bearer new'],
    );
    c.close();
  });
});

describe('token bucket rate limiter', () => {
  it('lets a burst through at once and then one request per 1/qps seconds, in arrival order', async () => {
    const clock = new FakeClock();
    const limiter = new TokenBucketRateLimiter({ qps: 5, burst: 10, clock });
    const passed: number[] = [];
    const start = clock.now();
    const all = Array.from({ length: 15 }, (_, i) => limiter.acquire().then(() => passed.push(i)));
    await clock.advance(0);
    assert.equal(passed.length, 10);
    await clock.advance(199);
    assert.equal(passed.length, 10);
    await clock.advance(1);
    assert.equal(passed.length, 11);
    await clock.advance(800);
    await Promise.all(all);
    assert.deepEqual(
      passed,
      Array.from({ length: 15 }, (_, i) => i),
    );
    assert.equal(clock.now() - start, 1000);
  });

  it('gives an aborted waiter its token back', async () => {
    const clock = new FakeClock();
    const limiter = new TokenBucketRateLimiter({ qps: 1, burst: 1, clock });
    await limiter.acquire();
    const ac = new AbortController();
    const waiting = limiter.acquire({ signal: ac.signal });
    ac.abort(new Error('gone'));
    await assert.rejects(waiting, /gone/);
    let ok = false;
    const next = limiter.acquire().then(() => {
      ok = true;
    });
    await clock.advance(999);
    assert.equal(ok, false);
    await clock.advance(1);
    await next;
    assert.equal(ok, true);
  });

  it('applies client-go defaults (5 qps, burst 10) through createClient, and qps -1 disables limiting', async () => {
    await using srv = await startFixtureServer((_req, res) => sendJson(res, 200, { metadata: {} }));
    const clock = new FakeClock();
    const limited = createClient({ server: srv.url, clock });
    let done = 0;
    const reqs = Array.from({ length: 11 }, () => limited.get(ConfigMapResource, nn).then(() => done++));
    // The burst completes over real sockets; the 11th waits on the fake clock, so it cannot finish meanwhile.
    for (let i = 0; i < 400 && done < 10; i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(done, 10);
    await settle(clock, Promise.all(reqs), 200);
    assert.equal(done, 11);
    limited.close();
    for (const qps of [-1, Infinity]) {
      const free = createClient({ server: srv.url, clock, qps });
      await Promise.all(Array.from({ length: 30 }, () => free.get(ConfigMapResource, nn)));
      free.close();
    }
    assert.throws(() => createClient({ server: srv.url, qps: 0 }), { code: 'CONVERGE_INVALID_OPTION', path: 'qps' });
  });
});
