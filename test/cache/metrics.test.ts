import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CacheMetricsProvider } from 'kube-converge/cache';
import { NetworkError } from 'kube-converge/client';
import { cm, goneStatus, statusError } from './fake-client.js';
import { harness } from './helpers.js';

function recordingProvider() {
  const values = new Map<string, number>();
  const add = (k: string, v: number) => values.set(k, (values.get(k) ?? 0) + v);
  const provider: CacheMetricsProvider = {
    newInitialSyncDurationMetric: (i) => ({
      observe: (s) => {
        add(`sync_count ${i}`, 1);
        values.set(`sync_seconds ${i}`, s);
      },
    }),
    newWatchConnectsMetric: (i) => ({ inc: () => add(`connects ${i}`, 1) }),
    newWatchErrorsMetric: (i, reason) => ({ inc: () => add(`errors ${i} ${reason}`, 1) }),
    newLastSyncedResourceVersionMetric: (i) => ({ set: (v) => values.set(`rv ${i}`, v) }),
    newStoreObjectsMetric: (i) => ({ set: (v) => values.set(`objects ${i}`, v) }),
    newPendingNotificationsMetric: (i, h) => ({ set: (v) => values.set(`pending ${i} ${h}`, v) }),
  };
  return { provider, values };
}

describe('cache health metrics', () => {
  it('report initial sync duration, connects, errors by reason, last synced RV, store size and pending notifications', async () => {
    const { provider, values } = recordingProvider();
    const h = harness({ informer: { metrics: provider, name: 'cms' } });
    h.client.upsert(cm('a'));
    h.client.listErrors.push(statusError(429, 'TooManyRequests'));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h.informer.addEventHandler({ onAdd: () => gate }, { name: 'slow' });
    h.start();
    await h.advance(1200);
    assert.equal(values.get('sync_count cms'), 1);
    assert.equal(values.get('sync_seconds cms'), 1.2);
    h.client.upsert(cm('b'));
    h.client.upsert(cm('c'));
    await h.advance(0);
    assert.equal(values.get('objects cms'), 3);
    assert.equal(values.get('rv cms'), 103);
    h.client.watch0.push({ type: 'ERROR', object: goneStatus() });
    await h.advance(2400); // second backoff: 1600 ms × 1.5
    assert.equal(values.get('connects cms'), 2);
    h.client.watch0.fail(new NetworkError('GET', '/w', new Error('reset')));
    await h.advance(4800);
    assert.equal(values.get('connects cms'), 3);
    assert.equal(values.get('errors cms tooManyRequests'), 1);
    assert.equal(values.get('errors cms gone'), 1);
    assert.equal(values.get('errors cms network'), 1);
    assert.equal(values.get('errors cms other'), undefined);
    assert.ok((values.get('pending cms slow') ?? 0) >= 1);
    release();
    await h.stop();
  });
});
