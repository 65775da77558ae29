// Imports meta's internal (private) face for the annotation that ends a streaming initial list.
// Watch end to end against the local API server over real loopback sockets, including the ugly
// endings: 410 Gone after compaction, the server stopping, a connection reset and a silent peer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { ConfigMapResource, type ObjectOf } from 'kube-converge/meta';
import { INITIAL_EVENTS_END_ANNOTATION } from '../../src/meta/internal.js';
import { startApiServer } from 'kube-converge/apiserver';
import {
  createClient,
  isGone,
  isResourceExpired,
  NetworkError,
  StatusError,
  type WatchEvent,
  type WatchStream,
} from 'kube-converge/client';
import { restConfigFor } from 'kube-converge/testing';

type ConfigMap = ObjectOf<typeof ConfigMapResource>;
const cm = (name: string, data: Record<string, string> = {}): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'default', name },
  data,
});

/** Reads `n` events, failing after 5 s of real time. */
async function take<T extends ConfigMap>(w: WatchStream<T>, n: number): Promise<WatchEvent<T>[]> {
  const it = w[Symbol.asyncIterator]();
  const out: WatchEvent<T>[] = [];
  const deadline = AbortSignal.timeout(5000);
  while (out.length < n) {
    const r = await Promise.race([
      it.next(),
      new Promise<never>((_, rej) =>
        deadline.addEventListener('abort', () => rej(new Error(`only ${out.length}/${n} events within 5 s`)), { once: true }),
      ),
    ]);
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

const nameOf = (e: WatchEvent): string => `${e.type} ${(e.object.metadata as { name?: string } | undefined)?.name ?? ''}`.trim();

describe('client e2e: watch', () => {
  it('watches from a resourceVersion: only later changes, in order', async () => {
    await using server = await startApiServer();
    const c = createClient({ config: restConfigFor(server) });
    const a = await c.create(ConfigMapResource, cm('a'));
    await c.create(ConfigMapResource, cm('b'));
    await c.update(ConfigMapResource, { ...a, data: { v: '2' } });
    await c.delete(ConfigMapResource, { namespace: 'default', name: 'b' });
    const w = await c.watch(ConfigMapResource, { namespace: 'default', resourceVersion: a.metadata.resourceVersion });
    const events = await take(w, 3);
    assert.deepEqual(events.map(nameOf), ['ADDED b', 'MODIFIED a', 'DELETED b']);
    const rvs = events.map((e) => BigInt(e.object.metadata!.resourceVersion!));
    assert.ok(
      rvs.every((rv, i) => i === 0 || rv > rvs[i - 1]!),
      'resourceVersions increase',
    );
    w.close();
    c.close();
  });

  it('streams the initial list with sendInitialEvents, ending with the initial-events-end bookmark, then live events', async () => {
    await using server = await startApiServer();
    const c = createClient({ config: restConfigFor(server) });
    await c.create(ConfigMapResource, cm('x'));
    await c.create(ConfigMapResource, cm('y'));
    const w = await c.watch(ConfigMapResource, {
      namespace: 'default',
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: true,
    });
    const initial = await take(w, 3);
    assert.deepEqual(initial.slice(0, 2).map(nameOf).sort(), ['ADDED x', 'ADDED y']);
    assert.equal(initial[2]!.type, 'BOOKMARK');
    assert.equal(initial[2]!.object.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION], 'true');
    await c.create(ConfigMapResource, cm('z'));
    assert.deepEqual((await take(w, 1)).map(nameOf), ['ADDED z']);
    w.close();
    c.close();
  });

  it('delivers periodic bookmarks carrying the current resourceVersion', async () => {
    await using server = await startApiServer({ bookmarkIntervalMs: 50 });
    const c = createClient({ config: restConfigFor(server) });
    const created = await c.create(ConfigMapResource, cm('bm'));
    const w = await c.watch(ConfigMapResource, { resourceVersion: created.metadata.resourceVersion, allowWatchBookmarks: true });
    const [bookmark] = await take(w, 1);
    assert.equal(bookmark!.type, 'BOOKMARK');
    assert.ok(BigInt(bookmark!.object.metadata!.resourceVersion!) >= BigInt(created.metadata.resourceVersion!));
    w.close();
    c.close();
  });

  it('surfaces a compacted resourceVersion as a 410 ERROR event on watch and a 410 StatusError on an exact list', async () => {
    await using server = await startApiServer();
    const c = createClient({ config: restConfigFor(server) });
    const old = await c.create(ConfigMapResource, cm('old'));
    for (let i = 0; i < 5; i++) await c.create(ConfigMapResource, cm(`n${i}`));
    server.compact();
    await c.create(ConfigMapResource, cm('after'));
    const w = await c.watch(ConfigMapResource, { resourceVersion: old.metadata.resourceVersion });
    const events = await take(w, 2);
    assert.equal(events.length, 1, 'the server closes the stream after the ERROR event');
    const [err] = events;
    assert.equal(err!.type, 'ERROR');
    assert.ok(isGone(err!.object) && isResourceExpired(err!.object));
    assert.equal(err!.object.code, 410);
    const listErr = await c
      .list(ConfigMapResource, { resourceVersion: old.metadata.resourceVersion, resourceVersionMatch: 'Exact' })
      .catch((e: unknown) => e);
    assert.ok(listErr instanceof StatusError && isGone(listErr), String(listErr));
    c.close();
  });

  it('rejects an invalid watch request with a StatusError before streaming', async () => {
    await using server = await startApiServer();
    const c = createClient({ config: restConfigFor(server) });
    await assert.rejects(
      c.watch(ConfigMapResource, { resourceVersionMatch: 'Exact', resourceVersion: '1', sendInitialEvents: true }),
      (e: unknown) => e instanceof StatusError && e.status.code === 422,
    );
    c.close();
  });

  it('ends the iteration cleanly when the server closes the watch at timeoutSeconds', async () => {
    await using server = await startApiServer();
    const c = createClient({ config: restConfigFor(server) });
    const w = await c.watch(ConfigMapResource, { resourceVersion: '1', timeoutSeconds: 1 });
    const events = await take(w, 1);
    assert.deepEqual(events, []);
    c.close();
  });

  it('ends the stream when the server stops mid-watch, and the next watch fails with a NetworkError', async () => {
    const server = await startApiServer();
    const c = createClient({ config: restConfigFor(server), maxRetries: 0 });
    const w = await c.watch(ConfigMapResource, { namespace: 'default', resourceVersion: '1' });
    await c.create(ConfigMapResource, cm('before-stop'));
    assert.deepEqual((await take(w, 1)).map(nameOf), ['ADDED before-stop']);
    await server.stop();
    assert.deepEqual(await take(w, 1), [], 'the server ended the response; the reflector re-watches from its last resourceVersion');
    await assert.rejects(
      c.watch(ConfigMapResource, { resourceVersion: '1' }),
      (e: unknown) => e instanceof NetworkError && /ECONNREFUSED/.test(e.message),
    );
    c.close();
  });

  // A TCP relay between client and server lets the tests cut or silence the connection mid-watch.
  async function relay(target: string) {
    const { port, protocol } = new URL(target);
    const pairs: { client: net.Socket; upstream: net.Socket }[] = [];
    const srv = net.createServer((client) => {
      const upstream = net.connect(Number(port), '127.0.0.1');
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      pairs.push({ client, upstream });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    return {
      // A byte relay: TLS passes through it end to end, so the URL keeps the target's scheme.
      url: `${protocol}//127.0.0.1:${(srv.address() as AddressInfo).port}`,
      reset: () =>
        pairs.forEach((p) => {
          p.client.resetAndDestroy();
          p.upstream.destroy();
        }),
      silence: () => pairs.forEach((p) => p.upstream.unpipe(p.client)),
      close: async () => {
        pairs.forEach((p) => {
          p.client.destroy();
          p.upstream.destroy();
        });
        await new Promise((r) => srv.close(r));
      },
    };
  }

  it('fails with a NetworkError when the connection is reset mid-watch, after the events already received', async () => {
    await using server = await startApiServer();
    const r = await relay(server.url);
    const c = createClient({ config: restConfigFor({ ...server, url: r.url }) });
    try {
      const w = await c.watch(ConfigMapResource, { namespace: 'default', resourceVersion: '1' });
      await c.create(ConfigMapResource, cm('seen'));
      assert.deepEqual((await take(w, 1)).map(nameOf), ['ADDED seen']);
      r.reset();
      await assert.rejects(
        take(w, 1),
        (e: unknown) => e instanceof NetworkError && e.message.includes('/api/v1/namespaces/default/configmaps?watch=true'),
      );
    } finally {
      c.close();
      await r.close();
    }
  });

  it('fails a silent (half-open) watch with a NetworkError from the inactivity watchdog', async () => {
    await using server = await startApiServer();
    const r = await relay(server.url);
    const c = createClient({ config: restConfigFor({ ...server, url: r.url }) });
    try {
      const w = await c.watch(ConfigMapResource, { namespace: 'default', resourceVersion: '1', inactivityTimeoutMs: 300 });
      r.silence();
      await c.create(ConfigMapResource, cm('lost'));
      await assert.rejects(take(w, 1), (e: unknown) => e instanceof NetworkError && /inactivity timeout 300 ms/.test(e.message));
    } finally {
      c.close();
      await r.close();
    }
  });
});
