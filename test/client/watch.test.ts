// Imports the client's private HttpWatchStream, tested against a loopback fixture server.
// Watch streams over a loopback fixture server: parameters, 410 ERROR events, break/close/abort
// freeing the socket, the inactivity timeout, dropped connections and malformed lines.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { ConfigMapResource, FakeClock } from 'kube-converge/meta';
import { createClient, isGone, NetworkError, StatusError, WatchDecodeError, type WatchEvent } from 'kube-converge/client';
import { startFixtureServer, sendJson } from './fixture-server.js';
import { HttpWatchStream } from '../../src/client/watch-stream.js';

const added = (name: string, rv: string) => ({
  type: 'ADDED',
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', resourceVersion: rv } },
});
const line = (e: unknown) => JSON.stringify(e) + '\n';

/** A server whose watch responses stay open; `open` receives each watch response to write to. */
async function watchServer() {
  const open: ServerResponse[] = [];
  const waiters: (() => void)[] = [];
  const srv = await startFixtureServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    res.flushHeaders();
    open.push(res);
    waiters.splice(0).forEach((w) => w());
  });
  const nextResponse = async (): Promise<ServerResponse> => {
    while (open.length === 0) await new Promise<void>((r) => waiters.push(r));
    return open.shift()!;
  };
  return { srv, nextResponse };
}

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(cond(), 'condition not reached within 2 s');
}

describe('watch streams', () => {
  it('sends the watch parameters and yields events written in arbitrary pieces', async () => {
    const { srv, nextResponse } = await watchServer();
    await using _ = srv;
    const c = createClient({ server: srv.url, qps: -1 });
    const w = await c.watch(ConfigMapResource, {
      namespace: 'default',
      resourceVersion: '5',
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: true,
      sendInitialEvents: true,
      timeoutSeconds: 30,
      labelSelector: 'a=b',
      fieldSelector: 'metadata.name=x',
    });
    assert.equal(
      srv.requests[0]!.url,
      '/api/v1/namespaces/default/configmaps?watch=true&labelSelector=a%3Db&fieldSelector=metadata.name%3Dx&resourceVersion=5&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&sendInitialEvents=true&timeoutSeconds=30',
    );
    const res = await nextResponse();
    const text =
      line(added('a', '6')) +
      line(added('b', '7')) +
      line({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '9' } } });
    res.write(text.slice(0, 10));
    res.write(text.slice(10, 100));
    res.write(text.slice(100));
    res.end();
    const seen: WatchEvent[] = [];
    for await (const e of w) seen.push(e);
    assert.deepEqual(
      seen.map((e) => `${e.type} ${e.object.metadata?.resourceVersion}`),
      ['ADDED 6', 'ADDED 7', 'BOOKMARK 9'],
    );
    c.close();
  });

  it('drainDecoded hands over already decoded events in order without a promise each, stops when told, and leaves the end to next()', async () => {
    const { srv, nextResponse } = await watchServer();
    await using _ = srv;
    const c = createClient({ server: srv.url, qps: -1 });
    const w = await c.watch(ConfigMapResource);
    assert.ok(w instanceof HttpWatchStream);
    (await nextResponse()).end(['2', '3', '4', '5', '6'].map((rv) => line(added(`cm-${rv}`, rv))).join(''));
    const it = w[Symbol.asyncIterator]();
    const seen: string[] = [];
    const first = await it.next();
    seen.push(first.value!.object.metadata!.resourceVersion!);
    assert.equal(
      w.drainDecoded(
        () => assert.fail('more() said no'),
        () => false,
      ),
      0,
    );
    for (;;) {
      let budget = 2;
      const n = w.drainDecoded(
        (e) => seen.push(e.object.metadata!.resourceVersion!),
        () => budget-- > 0,
      );
      assert.ok(n <= 2);
      const r = await it.next();
      if (r.done) break;
      seen.push(r.value.object.metadata!.resourceVersion!);
    }
    assert.deepEqual(seen, ['2', '3', '4', '5', '6']);
    c.close();
  });

  it('keeps a 410 ERROR event as an event whose Status isGone recognises', async () => {
    const { srv, nextResponse } = await watchServer();
    await using _ = srv;
    const c = createClient({ server: srv.url, qps: -1 });
    const w = await c.watch(ConfigMapResource, { resourceVersion: '1' });
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'too old resource version: 1 (40)',
      reason: 'Expired',
      code: 410,
    };
    (await nextResponse()).end(line({ type: 'ERROR', object: status }));
    const events: WatchEvent[] = [];
    for await (const e of w) events.push(e);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'ERROR');
    assert.ok(isGone(events[0]!.object));
    c.close();
  });

  it('rejects a non-2xx watch response with a StatusError', async () => {
    await using srv = await startFixtureServer((_req, res) =>
      sendJson(res, 403, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        reason: 'Forbidden',
        code: 403,
        message: 'nope',
      }),
    );
    const c = createClient({ server: srv.url, qps: -1 });
    await assert.rejects(c.watch(ConfigMapResource), (e: unknown) => e instanceof StatusError && e.status.reason === 'Forbidden');
    c.close();
  });

  it('frees the socket when the consumer breaks out of the loop', async () => {
    const { srv, nextResponse } = await watchServer();
    await using _ = srv;
    const c = createClient({ server: srv.url, qps: -1 });
    const w = await c.watch(ConfigMapResource);
    (await nextResponse()).write(line(added('a', '2')) + line(added('b', '3')));
    for await (const e of w) {
      assert.equal(e.type, 'ADDED');
      break;
    }
    await waitFor(() => srv.closedConnections() === 1);
    c.close();
  });

  it('close() ends a pending iteration and frees the socket', async () => {
    const { srv } = await watchServer();
    await using _ = srv;
    const c = createClient({ server: srv.url, qps: -1 });
    const w = await c.watch(ConfigMapResource);
    const pending = w[Symbol.asyncIterator]().next();
    w.close();
    assert.deepEqual(await pending, { value: undefined, done: true });
    await waitFor(() => srv.closedConnections() === 1);
    c.close();
  });

  it('aborting the signal rejects the pending next() with the reason and frees the socket', async () => {
    const { srv } = await watchServer();
    await using _ = srv;
    const c = createClient({ server: srv.url, qps: -1 });
    const ac = new AbortController();
    const w = await c.watch(ConfigMapResource, { signal: ac.signal });
    const pending = w[Symbol.asyncIterator]().next();
    const reason = new Error('shutting down');
    ac.abort(reason);
    await assert.rejects(pending, (e) => e === reason);
    await waitFor(() => srv.closedConnections() === 1);
    c.close();
  });

  it('fails with a NetworkError when no byte arrives within the inactivity timeout, reset by every chunk', async () => {
    const { srv, nextResponse } = await watchServer();
    await using _ = srv;
    const clock = new FakeClock();
    const c = createClient({ server: srv.url, qps: -1, clock });
    const w = await c.watch(ConfigMapResource, { inactivityTimeoutMs: 30_000 });
    const it = w[Symbol.asyncIterator]();
    const res = await nextResponse();
    await clock.advance(20_000);
    res.write(line(added('a', '2')));
    assert.equal((await it.next()).value?.type, 'ADDED');
    await clock.advance(20_000);
    const pending = it.next();
    await clock.advance(10_000);
    await assert.rejects(pending, (e: unknown) => e instanceof NetworkError && /inactivity timeout 30000 ms/.test(e.message));
    await waitFor(() => srv.closedConnections() === 1);
    c.close();
  });

  it('fails with a NetworkError when the server drops the connection mid-watch, after the events already received', async () => {
    const { srv, nextResponse } = await watchServer();
    await using _ = srv;
    const c = createClient({ server: srv.url, qps: -1 });
    const w = await c.watch(ConfigMapResource);
    const res = await nextResponse();
    res.write(line(added('a', '2')) + line(added('b', '3')));
    const it = w[Symbol.asyncIterator]();
    assert.equal((await it.next()).value?.object.metadata.name, 'a');
    res.socket?.destroy();
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for (let r = await it.next(); !r.done; r = await it.next()) seen.push(r.value.type);
      },
      (e: unknown) => e instanceof NetworkError && e.message.startsWith(`GET ${srv.url}/api/v1/configmaps?watch=true`),
    );
    assert.deepEqual(seen, ['ADDED'], 'the event received before the drop (b) is still delivered');
    c.close();
  });

  it('fails the iteration with a WatchDecodeError on a malformed line and closes the connection', async () => {
    const { srv, nextResponse } = await watchServer();
    await using _ = srv;
    const c = createClient({ server: srv.url, qps: -1 });
    const w = await c.watch(ConfigMapResource);
    (await nextResponse()).write(line(added('a', '2')) + 'this is not json\n');
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for await (const e of w) seen.push(e.type);
      },
      (e: unknown) => e instanceof WatchDecodeError && e.linePrefix === 'this is not json',
    );
    assert.deepEqual(seen, ['ADDED']);
    await waitFor(() => srv.closedConnections() === 1);
    c.close();
  });
});
