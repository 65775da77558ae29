// Watch: start points, replay and 410, streaming lists, bookmarks and timeouts on the injected clock, selector
// transitions, and slow watchers cut off without blocking writes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from 'kube-converge/meta';
import { createApiServer } from 'kube-converge/apiserver';
import { startApi, cm, serverRequest } from './helpers.js';

const CMS = '/api/v1/namespaces/default/configmaps';

describe('watch', () => {
  it('without a resourceVersion sends ADDED for current objects, then live events', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('b'));
    await api.call('POST', CMS, cm('a'));
    const w = await api.watch(`${CMS}?watch=true`);
    assert.equal(w.status, 200);
    assert.match(String(w.headers['content-type']), /^application\/json/);
    const initial = await w.take(2);
    assert.deepEqual(
      initial.map((e) => [e.type, e.object.metadata.name]),
      [
        ['ADDED', 'a'],
        ['ADDED', 'b'],
      ],
    );
    await api.call('POST', CMS, cm('c'));
    const live = await w.next();
    assert.equal(live?.type, 'ADDED');
    assert.equal(live?.object.metadata.name, 'c');
  });

  it('from a resourceVersion replays only events strictly after it, in order', async () => {
    await using api = await startApi();
    const a = (await api.call('POST', CMS, cm('a'))).body;
    const a2 = (await api.call('PUT', `${CMS}/a`, { ...a, data: { x: '1' } })).body;
    await api.call('DELETE', `${CMS}/a`);
    const w = await api.watch(`${CMS}?watch=true&resourceVersion=${a.metadata.resourceVersion}`);
    const evs = await w.take(2);
    assert.deepEqual(
      evs.map((e) => e.type),
      ['MODIFIED', 'DELETED'],
    );
    assert.equal(evs[0]!.object.metadata.resourceVersion, a2.metadata.resourceVersion);
    assert.ok(
      Number(evs[1]!.object.metadata.resourceVersion) > Number(a2.metadata.resourceVersion),
      'DELETED carries the deletion revision',
    );
  });

  it('answers a too-old resourceVersion with one ERROR 410 Expired event, then closes', async () => {
    await using api = await startApi();
    const a = (await api.call('POST', CMS, cm('a'))).body;
    await api.call('POST', CMS, cm('b'));
    api.srv.compact();
    const w = await api.watch(`${CMS}?watch=true&resourceVersion=${a.metadata.resourceVersion}`);
    assert.equal(w.status, 200);
    const ev = await w.next();
    assert.equal(ev?.type, 'ERROR');
    assert.equal(ev?.object.kind, 'Status');
    assert.equal(ev?.object.code, 410);
    assert.equal(ev?.object.reason, 'Expired');
    assert.match(ev?.object.message, /^too old resource version: \d+ \(\d+\)$/);
    await w.ended();
    assert.equal(await w.next(), undefined);
  });

  it('expires history beyond historySize', async () => {
    await using api = await startApi({ historySize: 3 });
    const a = (await api.call('POST', CMS, cm('a'))).body;
    for (const n of ['b', 'c', 'd', 'e']) await api.call('POST', CMS, cm(n));
    const w = await api.watch(`${CMS}?watch=true&resourceVersion=${a.metadata.resourceVersion}`);
    assert.equal((await w.next())?.object.code, 410);
  });

  it('streams a list with sendInitialEvents and ends it with the initial-events-end bookmark', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a'));
    const last = (await api.call('POST', CMS, cm('b'))).body;
    const w = await api.watch(`${CMS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    const evs = await w.take(3);
    assert.deepEqual(
      evs.map((e) => e.type),
      ['ADDED', 'ADDED', 'BOOKMARK'],
    );
    const bm = evs[2]!.object;
    assert.equal(bm.kind, 'ConfigMap');
    assert.equal(bm.apiVersion, 'v1');
    assert.equal(bm.metadata.annotations['k8s.io/initial-events-end'], 'true');
    assert.ok(Number(bm.metadata.resourceVersion) >= Number(last.metadata.resourceVersion));
  });

  it('sends the initial-events-end bookmark even for an empty collection', async () => {
    await using api = await startApi();
    const w = await api.watch(
      `/api/v1/namespaces/kube-public/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    const ev = await w.next();
    assert.equal(ev?.type, 'BOOKMARK');
    assert.equal(ev?.object.metadata.annotations['k8s.io/initial-events-end'], 'true');
  });

  it('answers a streaming list from a revision the server has not reached with one ERROR 504 event', async () => {
    await using api = await startApi();
    const w = await api.watch(
      `${CMS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=99999`,
    );
    const ev = await w.next();
    assert.equal(ev?.type, 'ERROR');
    assert.equal(ev?.object.code, 504);
    assert.equal(ev?.object.details.causes[0].reason, 'ResourceVersionTooLarge');
    await w.ended();
  });

  it('rejects sendInitialEvents without resourceVersionMatch=NotOlderThan, and on a plain list, with 422', async () => {
    await using api = await startApi();
    const r = await api.call('GET', `${CMS}?watch=true&sendInitialEvents=true`);
    assert.equal(r.status, 422);
    assert.equal(r.body.details.kind, 'ListOptions');
    const l = await api.call('GET', `${CMS}?sendInitialEvents=true`);
    assert.equal(l.status, 422);
  });

  it('sends periodic bookmarks on the injected clock only when allowWatchBookmarks is set', async () => {
    const clock = new FakeClock();
    await using api = await startApi({ clock, bookmarkIntervalMs: 1000 });
    const a = (await api.call('POST', CMS, cm('a'))).body;
    const withBm = await api.watch(`${CMS}?watch=true&allowWatchBookmarks=true&resourceVersion=${a.metadata.resourceVersion}`);
    const without = await api.watch(`${CMS}?watch=true&resourceVersion=${a.metadata.resourceVersion}`);
    const other = (await api.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n1' } })).body;
    await clock.advance(1000);
    const bm = await withBm.next();
    assert.equal(bm?.type, 'BOOKMARK');
    assert.equal(bm?.object.metadata.resourceVersion, other.metadata.resourceVersion, 'bookmark carries the current global revision');
    await api.call('POST', CMS, cm('b'));
    assert.equal((await without.next())?.type, 'ADDED', 'no bookmark before the next event');
  });

  it('closes the stream after timeoutSeconds on the injected clock', async () => {
    const clock = new FakeClock();
    await using api = await startApi({ clock });
    const w = await api.watch(`${CMS}?watch=true&resourceVersion=1&timeoutSeconds=5`);
    await clock.advance(5000);
    await w.ended();
  });

  it('sends a bookmark 2 s before the timeoutSeconds deadline when bookmarks are allowed, then closes', async () => {
    const clock = new FakeClock();
    await using api = await startApi({ clock });
    const a = (await api.call('POST', CMS, cm('a'))).body;
    const withBm = await api.watch(
      `${CMS}?watch=true&allowWatchBookmarks=true&timeoutSeconds=10&resourceVersion=${a.metadata.resourceVersion}`,
    );
    const without = await api.watch(`${CMS}?watch=true&timeoutSeconds=10&resourceVersion=${a.metadata.resourceVersion}`);
    const ns = (await api.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n1' } })).body;
    await clock.advance(7_999);
    await api.call('POST', CMS, cm('b'));
    assert.equal((await withBm.next())?.type, 'ADDED', 'no bookmark before 8 s');
    await clock.advance(1);
    const bm = await withBm.next();
    assert.equal(bm?.type, 'BOOKMARK');
    assert.equal(
      Number(bm?.object.metadata.resourceVersion),
      Number(ns.metadata.resourceVersion) + 1,
      'the bookmark carries the current revision',
    );
    assert.equal((await without.next())?.type, 'ADDED');
    await clock.advance(2_000);
    await withBm.ended();
    await without.ended();
    assert.equal(await without.next(), undefined, 'no bookmark without allowWatchBookmarks');
  });

  it('keeps the stream open for timeoutSeconds=0, which asks for the server default', async () => {
    const clock = new FakeClock();
    await using api = await startApi({ clock });
    const w = await api.watch(`${CMS}?watch=true&resourceVersion=1&timeoutSeconds=0`);
    await clock.advance(60_000);
    await api.call('POST', CMS, cm('a'));
    const e = await w.next();
    assert.equal(e?.type, 'ADDED');
    assert.equal(e?.object.metadata.name, 'a');
  });

  it('ends a watch that arrives after stop() at once, leaving no watcher or timer behind', async () => {
    const clock = new FakeClock();
    const api = createApiServer({ clock, bookmarkIntervalMs: 1000 });
    api.stop();
    const r = await api.handle({ method: 'GET', path: `${CMS}?watch=true&allowWatchBookmarks=true&timeoutSeconds=30`, headers: {} });
    assert.equal(r.status, 200);
    const written: string[] = [];
    let ended = false;
    r.stream!.attach({ write: (c) => (written.push(String(c)), true), end: () => (ended = true) });
    assert.equal(ended, true);
    assert.equal(clock.pendingTimers(), 0);
    assert.deepEqual(written, []);
  });

  it('turns selector transitions into ADDED and DELETED for that watcher', async () => {
    await using api = await startApi();
    const a = (await api.call('POST', CMS, cm('a', {}, { labels: { team: 'x' } }))).body;
    const w = await api.watch(`${CMS}?watch=true&labelSelector=team%3Dy&resourceVersion=${a.metadata.resourceVersion}`);
    const moved = (await api.call('PUT', `${CMS}/a`, { ...a, metadata: { ...a.metadata, labels: { team: 'y' } } })).body;
    const added = await w.next();
    assert.equal(added?.type, 'ADDED');
    assert.equal(added?.object.metadata.resourceVersion, moved.metadata.resourceVersion);
    const same = (await api.call('PUT', `${CMS}/a`, { ...moved, data: { k: 'v' } })).body;
    assert.equal((await w.next())?.type, 'MODIFIED');
    const left = (await api.call('PUT', `${CMS}/a`, { ...same, metadata: { ...same.metadata, labels: { team: 'z' } } })).body;
    const del = await w.next();
    assert.equal(del?.type, 'DELETED');
    assert.equal(del?.object.metadata.labels.team, 'y', 'previous state');
    assert.equal(del?.object.metadata.resourceVersion, left.metadata.resourceVersion, "the event's revision");
  });

  it('scopes a watch by field selector metadata.name and by the legacy /watch/ item path', async () => {
    await using api = await startApi();
    const w1 = await api.watch(`${CMS}?watch=true&fieldSelector=metadata.name%3Db&resourceVersion=1`);
    const w2 = await api.watch(`/api/v1/watch/namespaces/default/configmaps/b?resourceVersion=1`);
    await api.call('POST', CMS, cm('a'));
    await api.call('POST', CMS, cm('b'));
    assert.equal((await w1.next())?.object.metadata.name, 'b');
    assert.equal((await w2.next())?.object.metadata.name, 'b');
    const bad = await api.call('GET', `/api/v1/watch/namespaces/default/configmaps/b?fieldSelector=metadata.name%3Dc`);
    assert.equal(bad.status, 400);
  });

  it('rejects an unsupported field selector with 400', async () => {
    await using api = await startApi();
    const r = await api.call('GET', `${CMS}?fieldSelector=spec.foo%3Dx`);
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'field label not supported: spec.foo');
  });

  it('serialises each event once for many watchers of the same form', async () => {
    const api = createApiServer();
    const lines: string[][] = [[], []];
    for (const i of [0, 1]) {
      const r = await api.handle({ method: 'GET', path: `${CMS}?watch=true&resourceVersion=1` });
      r.stream!.attach({ write: (l) => (lines[i]!.push(l), true), end: () => {} });
    }
    await api.handle({ method: 'POST', path: CMS, body: JSON.stringify(cm('a')) });
    assert.equal(lines[0]!.length, 1);
    assert.equal(lines[0]![0], lines[1]![0]);
    assert.ok(Object.is(lines[0]![0], lines[1]![0]));
    api.stop();
  });

  it('renders a live event once for all watchers of one form (counted through the Table converter)', async () => {
    let renders = 0;
    const api = createApiServer({
      table: (objects) => (
        renders++,
        { kind: 'Table', apiVersion: 'meta.k8s.io/v1', columnDefinitions: [], rows: objects.map(() => ({ cells: [] })) }
      ),
    });
    const lines: string[][] = [[], [], []];
    for (const l of lines) {
      const r = await api.handle({
        method: 'GET',
        path: `${CMS}?watch=true&resourceVersion=1`,
        headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      });
      r.stream!.attach({ write: (line) => (l.push(line), true), end: () => {} });
    }
    await api.handle({ method: 'POST', path: CMS, body: JSON.stringify(cm('a')) });
    assert.equal(renders, 3, 'the first event of each watcher carries its column definitions, so it is rendered per watcher');
    await api.handle({ method: 'POST', path: CMS, body: JSON.stringify(cm('b')) });
    assert.equal(renders, 4, 'later events are rendered once and shared');
    assert.deepEqual(
      lines.map((l) => l.length),
      [2, 2, 2],
    );
    api.stop();
  });

  it('closes a watcher that does not keep up, without blocking writes or other watchers', async () => {
    const api = createApiServer({ watchBufferSize: 5 });
    const fast: string[] = [];
    let slowEnded = false;
    const slow = await api.handle({ method: 'GET', path: `${CMS}?watch=true&resourceVersion=1` });
    slow.stream!.attach({ write: () => false, end: () => (slowEnded = true) });
    const ok = await api.handle({ method: 'GET', path: `${CMS}?watch=true&resourceVersion=1` });
    ok.stream!.attach({ write: (l) => (fast.push(l), true), end: () => {} });
    for (let i = 0; i < 10; i++) {
      const r = await api.handle({ method: 'POST', path: CMS, body: JSON.stringify(cm(`c${i}`)) });
      assert.equal(r.status, 201);
    }
    assert.equal(slowEnded, true);
    assert.equal(fast.length, 10);
    api.stop();
  });
});

describe('watch over a real socket', () => {
  it('closes a watcher whose client stops reading, while writes and other watchers go on', async () => {
    await using api = await startApi({ watchBufferSize: 20 });
    const fast = await api.watch(`${CMS}?watch=true&resourceVersion=1`);
    let received = 0;
    let ended = false;
    const stalled = await new Promise<import('node:http').IncomingMessage>((resolve) => {
      serverRequest(api.srv, `${CMS}?watch=true&resourceVersion=1`, {}, (res) => resolve(res)).end();
    });
    stalled.pause();
    const big = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 300; i++) {
      const r = await api.call('POST', CMS, cm(`c${i}`, { big }));
      assert.equal(r.status, 201);
    }
    assert.equal((await fast.take(300, 10_000)).length, 300);
    await new Promise<void>((resolve) => {
      stalled.on('data', (chunk: Buffer) => {
        received += chunk.toString().split('\n').length - 1;
      });
      stalled.on('end', () => {
        ended = true;
        resolve();
      });
      stalled.resume();
    });
    assert.equal(ended, true);
    assert.ok(received < 300, `the stalled watcher was cut off (got ${received} of 300 events)`);
  });
});
