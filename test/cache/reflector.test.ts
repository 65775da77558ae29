import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NetworkError } from 'kube-converge/client';
import { cm, goneStatus, statusError } from './fake-client.js';
import { harness } from './helpers.js';

const reset = (): NetworkError => new NetworkError('GET', '/x', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
const refused = (): NetworkError =>
  new NetworkError('GET', '/x', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));

describe('reflector: list, then watch, with client-go resourceVersion choices', () => {
  it('lists from "0" in pages of 500, then watches from the list RV with bookmarks and a 5-10 minute timeout', async () => {
    const h = harness();
    for (let i = 0; i < 1200; i++) h.client.upsert(cm(`c${String(i).padStart(4, '0')}`));
    h.start();
    await h.advance(0);
    const lists = h.client.lists();
    assert.deepEqual(
      lists.map((l) => [l.resourceVersion, l.limit, l.continue]),
      [
        ['0', 500, undefined],
        [undefined, 500, '500'],
        [undefined, 500, '1000'],
      ],
    );
    const [watch] = h.client.watchCalls();
    assert.equal(watch!.resourceVersion, '1300');
    assert.equal(watch!.allowWatchBookmarks, true);
    assert.equal(watch!.timeoutSeconds, 450); // random 0.5 → 300 s + 0.5 × 300 s
    assert.equal(h.informer.getIndexer().list().length, 1200);
    assert.equal(h.informer.hasSynced(), true);
    await h.stop();
  });

  it('re-watches from the last RV after a clean close, without relisting', async () => {
    const h = harness();
    h.client.upsert(cm('a'));
    h.start();
    await h.advance(0);
    h.client.upsert(cm('a', { v: '2' }));
    await h.advance(0);
    h.client.watch0.end();
    await h.advance(0);
    assert.equal(h.client.lists().length, 1);
    assert.deepEqual(
      h.client.watchCalls().map((w) => w.resourceVersion),
      ['101', '102'],
    );
    assert.equal(h.informer.status().reconnects, 1);
    await h.stop();
  });

  it('after 410 Gone mid-watch relists from the last RV after the backoff, and from "" when that is expired too', async () => {
    const h = harness();
    h.client.upsert(cm('a'));
    h.start();
    await h.advance(0);
    h.client.upsert(cm('b'));
    await h.advance(0);
    h.client.listErrors.push(statusError(410, 'Expired'));
    h.client.watch0.push({ type: 'ERROR', object: goneStatus() });
    await h.advance(0);
    assert.equal(h.informer.status().phase, 'backoff');
    assert.equal(h.client.lists().length, 1, 'no relist before the backoff delay');
    await h.advance(1200); // 800 ms × (1 + 0.5 jitter)
    const rvs = h.client.lists().map((l) => [l.resourceVersion, l.limit]);
    assert.deepEqual(rvs, [
      ['0', 500],
      ['102', undefined],
      ['', 500],
    ]);
    assert.equal(h.client.watch0.options.resourceVersion, '102');
    assert.equal(h.informer.status().errors.gone, 2);
    await h.stop();
  });

  it('a watch that closes at once without events counts as a failure and is followed by a backed-off relist', async () => {
    const h = harness();
    h.start();
    await h.advance(0);
    h.client.watch0.end();
    await h.advance(0);
    assert.equal(h.informer.status().phase, 'backoff');
    assert.equal(h.informer.status().lastError?.message.includes('closed at once'), true);
    await h.advance(1200);
    assert.equal(h.client.lists().length, 2);
    await h.stop();
  });

  it('backs off on 429 honouring Retry-After, then watches again without relisting', async () => {
    const h = harness();
    h.start();
    await h.advance(0);
    h.client.upsert(cm('a'));
    await h.advance(0);
    h.client.watchErrors.push(statusError(429, 'TooManyRequests', { details: { retryAfterSeconds: 5 } }));
    h.client.watch0.fail(reset());
    await h.advance(0);
    // The cut watch is resumed at once; that attempt gets 429 and must wait 5 s.
    assert.equal(h.client.watchCalls().length, 2);
    await h.advance(4999);
    assert.equal(h.client.watchCalls().length, 2);
    await h.advance(1);
    assert.deepEqual(
      h.client.watchCalls().map((w) => w.resourceVersion),
      ['100', '101', '101'],
    );
    assert.equal(h.client.lists().length, 1, '429 on watch re-watches, it does not relist');
    assert.deepEqual(h.informer.status().errors, { gone: 0, tooManyRequests: 1, network: 1, other: 0 });
    await h.stop();
  });

  it('resumes a watch cut after it was established from its last RV at once: no wait, no relist', async () => {
    const h = harness();
    h.start();
    await h.advance(0);
    for (let i = 1; i <= 3; i++) {
      h.client.upsert(cm(`c${i}`));
      await h.advance(0);
      h.client.watch0.fail(reset());
      await h.advance(0);
      assert.equal(h.informer.status().phase, 'watching');
    }
    assert.deepEqual(
      h.client.watchCalls().map((w) => w.resourceVersion),
      ['100', '101', '102', '103'],
    );
    assert.equal(h.client.lists().length, 1);
    const s = h.informer.status();
    assert.deepEqual([s.reconnects, s.relists, s.errors.network], [3, 0, 3]);
    assert.ok(h.logger.lines.some((l) => l.level === 'info' && l.msg === 'watch cut; resuming from the last resourceVersion'));
    await h.stop();
  });

  it('backs off without relisting while a watch cannot be established (refused, or cut before anything arrived), and starts the delays over once one is', async () => {
    const h = harness();
    h.start();
    await h.advance(0);
    h.client.upsert(cm('a'));
    await h.advance(0);
    h.client.watchErrors.push(refused(), refused());
    h.client.watch0.fail(reset());
    await h.advance(0); // resumed at once: refused
    assert.equal(h.informer.status().phase, 'backoff');
    await h.advance(1200); // 800 ms × 1.5: refused again
    assert.equal(h.client.watchCalls().length, 3);
    await h.advance(2399);
    assert.equal(h.client.watchCalls().length, 3, 'the second delay doubled');
    await h.advance(1); // 1600 ms × 1.5: this one opens, then is cut before any event
    assert.equal(h.client.watchCalls().length, 4);
    h.client.watch0.fail(reset());
    await h.advance(4799);
    assert.equal(h.client.watchCalls().length, 4, 'a cut before the first event is a failure to establish: 3200 ms × 1.5');
    await h.advance(1);
    assert.equal(h.client.watchCalls().length, 5);
    h.client.upsert(cm('b')); // this watch is established
    await h.advance(0);
    h.client.watchErrors.push(refused());
    h.client.watch0.fail(reset());
    await h.advance(0);
    await h.advance(1199);
    assert.equal(h.client.watchCalls().length, 6);
    await h.advance(1); // back to 800 ms × 1.5
    assert.equal(h.client.watchCalls().length, 7);
    assert.deepEqual(
      h.client.watchCalls().map((w) => w.resourceVersion),
      ['100', '101', '101', '101', '101', '102', '102'],
    );
    assert.equal(h.client.lists().length, 1, 'never relisted');
    await h.stop();
  });

  it('never stops on its own: list failures are retried with growing delays and reported in status and logs', async () => {
    const h = harness();
    h.client.listErrors.push(statusError(500, 'InternalError'), statusError(500, 'InternalError'), statusError(403, 'Forbidden'));
    h.start();
    await h.advance(0);
    assert.equal(h.client.lists().length, 1);
    await h.advance(1200);
    assert.equal(h.client.lists().length, 2);
    await h.advance(2399);
    assert.equal(h.client.lists().length, 2);
    await h.advance(1); // 1600 × 1.5
    assert.equal(h.client.lists().length, 3);
    await h.advance(4800);
    assert.equal(h.client.lists().length, 4);
    assert.equal(h.informer.hasSynced(), true);
    assert.equal(h.informer.status().errors.other, 3);
    assert.ok(h.logger.lines.some((l) => l.level === 'warn' && l.msg === 'list failed; retrying'));
    await h.stop();
  });

  it('asks every watch it opens, streaming lists included, for the inactivity watchdog, and resumes from its last RV without relisting when a silent watch is failed by it', async () => {
    const h = harness({ informer: { reflector: { inactivityTimeoutMs: 60_000 } } });
    h.start();
    await h.advance(0);
    h.client.upsert(cm('a'));
    await h.advance(0);
    // What the client's watch stream does once no byte arrived for the timeout.
    h.client.watch0.fail(new NetworkError('GET', '/x', new Error('no data for 60000 ms (inactivity timeout 60000 ms)')));
    await h.advance(0);
    assert.deepEqual(
      h.client.watchCalls().map((w) => [w.resourceVersion, w.inactivityTimeoutMs]),
      [
        ['100', 60_000],
        ['101', 60_000],
      ],
    );
    assert.equal(h.informer.status().errors.network, 1);
    assert.equal(h.client.lists().length, 1);
    await h.stop();
    const streaming = harness({ informer: { reflector: { watchList: true } } });
    streaming.start();
    await streaming.advance(0);
    assert.equal(streaming.client.watchCalls()[0]!.inactivityTimeoutMs, 660_000);
    await streaming.stop();
  });

  it('populates with a streaming list ending at the initial-events-end bookmark and keeps that stream as its watch', async () => {
    const h = harness({ informer: { reflector: { watchList: true } } });
    h.client.upsert(cm('a'));
    h.client.upsert(cm('b'));
    h.start();
    await h.advance(0);
    assert.equal(h.client.lists().length, 0);
    const [w] = h.client.watchCalls();
    assert.equal(w!.sendInitialEvents, true);
    assert.equal(w!.resourceVersionMatch, 'NotOlderThan');
    assert.equal(w!.resourceVersion, undefined);
    assert.equal(h.informer.hasSynced(), true);
    assert.equal(h.informer.lastSyncResourceVersion(), '102');
    h.client.upsert(cm('c'));
    await h.advance(0);
    assert.equal(h.client.watchCalls().length, 1);
    assert.equal(h.informer.getIndexer().list().length, 3);
    await h.stop();
  });

  it('falls back to a paginated list when the server rejects streaming lists, and stops asking', async () => {
    const h = harness({ client: { watchList: 'rejected' }, informer: { reflector: { watchList: true } } });
    h.client.upsert(cm('a'));
    h.start();
    await h.advance(0);
    assert.equal(h.informer.hasSynced(), true);
    h.client.watch0.push({ type: 'ERROR', object: goneStatus() });
    await h.advance(1200);
    assert.deepEqual(
      h.client.lists().map((l) => l.resourceVersion),
      ['0', '101'],
    );
    assert.equal(h.client.watchCalls().filter((w) => w.sendInitialEvents).length, 1);
    await h.stop();
  });

  it('reports lastSyncResourceVersion from watch events and bookmarks', async () => {
    const h = harness();
    h.start();
    await h.advance(0);
    assert.equal(h.informer.lastSyncResourceVersion(), '100');
    h.client.upsert(cm('a'));
    await h.advance(0);
    assert.equal(h.informer.lastSyncResourceVersion(), '101');
    h.client.watch0.push({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '150' } } });
    await h.advance(0);
    assert.equal(h.informer.lastSyncResourceVersion(), '150');
    assert.equal(h.informer.getIndexer().lastStoreSyncResourceVersion(), '150');
    await h.stop();
    assert.equal(h.informer.status().phase, 'stopped');
  });
});
