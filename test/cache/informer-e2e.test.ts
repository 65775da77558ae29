import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isDeletedFinalStateUnknown } from 'kube-converge/cache';
import { ConfigMapResource, objectKey, type KubeObject } from 'kube-converge/meta';
import { eventually } from 'kube-converge/testing';
import { configMap, startE2E } from './e2e-env.js';

const cmR = ConfigMapResource as unknown as Parameters<import('kube-converge/client').Client['create']>[0];

async function seed(env: Awaited<ReturnType<typeof startE2E>>, n: number, prefix = 'cm'): Promise<void> {
  for (let i = 0; i < n; i++) await env.writer.create(cmR, configMap(`${prefix}-${i}`, { v: '0' }));
}

describe('informer against the local API server, with faults', () => {
  it('syncs, follows live writes, and stays equal to the server', async () => {
    const env = await startE2E();
    try {
      await seed(env, 20);
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      await env.converged();
      await env.writer.delete(cmR, { namespace: 'default', name: 'cm-3' });
      await env.writer.update(cmR, { ...(await env.writer.get(cmR, { namespace: 'default', name: 'cm-4' })), data: { v: '1' } });
      await env.converged();
    } finally {
      await env.close();
    }
  });

  it('relists after a 410 Gone caused by compaction while its watch was stalled, delivering tombstones for what was deleted', async () => {
    const env = await startE2E();
    const tombstones: string[] = [];
    env.informer.addEventHandler({ onDelete: (o) => void (isDeletedFinalStateUnknown(o) && tombstones.push(o.key)) });
    try {
      await seed(env, 10);
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      await env.converged();
      env.reader.dropEvents = true; // the watch stalls: events are lost in flight
      await env.writer.delete(cmR, { namespace: 'default', name: 'cm-1' });
      await env.writer.create(cmR, configMap('late'));
      env.api.compact();
      env.reader.dropEvents = false;
      env.reader.endWatches(); // the server closes the watch; the re-watch from the old RV hits the compaction
      await env.converged();
      assert.ok(env.informer.status().errors.gone >= 1, JSON.stringify(env.informer.status()));
      await eventually(() => tombstones.includes('default/cm-1'));
    } finally {
      await env.close();
    }
  });

  it('recovers from connections cut mid-watch by resuming the watch from its RV, without relisting', async () => {
    const env = await startE2E();
    try {
      await seed(env, 5);
      await env.converged();
      for (let round = 0; round < 3; round++) {
        await eventually(() => env.reader.openWatches > 0, { message: 'a watch to cut' });
        const watches = env.reader.watchTimes.length;
        env.proxy.cut();
        await env.writer.create(cmR, configMap(`after-cut-${round}`));
        await env.converged();
        await eventually(() => env.reader.watchTimes.length > watches && env.informer.status().phase === 'watching', {
          message: 'a new watch',
        });
      }
      await eventually(() => env.informer.status().reconnects >= 3, { message: 'three reconnects' });
      assert.ok(env.informer.status().errors.network >= 3, JSON.stringify(env.informer.status()));
      assert.equal(env.reader.listTimes.length, 1, 'only the first list');
    } finally {
      await env.close();
    }
  });

  it("notices a half-open connection (the socket stays open, no byte arrives) by the watch stream's inactivity watchdog, and resumes the watch from its RV without relisting", async () => {
    // The server sends a bookmark every second, so a live watch is never silent for 2.5 s.
    const env = await startE2E({ informer: { reflector: { inactivityTimeoutMs: 2_500 } } });
    try {
      await seed(env, 3);
      await env.converged();
      await eventually(() => env.reader.openWatches > 0, { message: 'a watch to partition' });
      const watches = env.reader.watchTimes.length;
      const rv = env.informer.lastSyncResourceVersion();
      env.proxy.blackhole();
      await eventually(() => env.informer.status().errors.network >= 1, { timeoutMs: 15_000, message: 'the silent watch failed' });
      await eventually(() => env.reader.watchTimes.length > watches, { timeoutMs: 15_000, message: 'a new watch attempt' });
      assert.equal(env.informer.status().lastError?.reason, 'network', JSON.stringify(env.informer.status()));
      assert.ok(Number(env.informer.lastSyncResourceVersion()) >= Number(rv));
      assert.equal(env.reader.listTimes.length, 1, 'only the first list');
    } finally {
      await env.close();
    }
  });

  it('objects deleted while the server was unreachable reach handlers as deletes once it is back: the watch resumes from its RV, no relist', async () => {
    const env = await startE2E();
    const seen: string[] = [];
    env.informer.addEventHandler({
      onDelete: (o) => void seen.push(isDeletedFinalStateUnknown(o) ? `tombstone ${o.key}` : `delete ${objectKey(o)}`),
    });
    try {
      await seed(env, 6);
      await env.converged();
      await env.proxy.down();
      await env.writer.delete(cmR, { namespace: 'default', name: 'cm-0' });
      await env.writer.delete(cmR, { namespace: 'default', name: 'cm-5' });
      await new Promise((r) => setTimeout(r, 100)); // a few refused reconnects
      assert.equal(env.informer.getIndexer().getByKey('default/cm-0')?.metadata.name, 'cm-0', 'the cache keeps serving while down');
      await env.proxy.up();
      await env.converged();
      assert.deepEqual(seen.sort(), ['delete default/cm-0', 'delete default/cm-5']);
      assert.ok(env.informer.status().errors.network >= 1);
      assert.equal(env.informer.status().relists, 0);
    } finally {
      await env.close();
    }
  });

  it('converges after the API server restarts (listener closed and reopened, storage kept)', async () => {
    const env = await startE2E();
    try {
      await seed(env, 5);
      await env.converged();
      await eventually(() => env.reader.openWatches > 0, { message: 'a watch to break' });
      await env.restartServer();
      await env.writer.create(cmR, configMap('after-restart'));
      await env.writer.delete(cmR, { namespace: 'default', name: 'cm-2' });
      await env.converged();
      await eventually(() => env.informer.status().reconnects >= 1, { message: 'a reconnect' });
    } finally {
      await env.close();
    }
  });

  it('populates with a streaming list against the local server and keeps that stream', async () => {
    const env = await startE2E({ informer: { reflector: { watchList: true } } });
    try {
      await seed(env, 7);
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      await env.converged();
      await env.writer.create(cmR, configMap('live'));
      await env.converged();
      assert.equal(env.reader.listTimes.length, 0, 'no LIST was needed');
      assert.equal(env.reader.watchTimes.length, 1);
    } finally {
      await env.close();
    }
  });

  it('falls back to LIST and WATCH against a server that refuses streaming lists (Kubernetes 1.33, WatchList off)', async () => {
    const env = await startE2E({ informer: { reflector: { watchList: true } }, kubernetesVersion: '1.33' });
    try {
      await seed(env, 3);
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      await env.converged();
      await env.writer.create(cmR, configMap('live'));
      await env.converged();
      assert.ok(env.reader.listTimes.length >= 1, 'the informer listed after the refusal');
    } finally {
      await env.close();
    }
  });

  it('against the server: a late handler gets the store as initial adds, a throwing handler and a blocked handler do not hold back the others', async () => {
    const env = await startE2E();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const blocked = env.informer.addEventHandler({ onAdd: () => gate });
    const thrower = env.informer.addEventHandler({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    try {
      await seed(env, 8);
      await env.converged();
      const seen: string[] = [];
      const late = env.informer.addEventHandler({
        onAdd: (o, initial) => void seen.push(`${o.metadata.name}${initial ? ' initial' : ''}`),
      });
      await env.writer.create(cmR, configMap('after-late'));
      await eventually(() => seen.length === 9 && late.hasSynced());
      assert.equal(seen.filter((s) => s.endsWith(' initial')).length, 8);
      assert.equal(seen.at(-1), 'after-late');
      assert.equal(thrower.errors(), 9);
      assert.equal(blocked.pending(), 8, 'the blocked handler holds its own backlog');
      assert.equal(blocked.hasSynced(), false);
      release();
      await eventually(() => blocked.pending() === 0 && blocked.hasSynced());
    } finally {
      release();
      await env.close();
    }
  });

  it('objects in the cache are frozen', async () => {
    const env = await startE2E();
    try {
      await seed(env, 1);
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      await env.converged();
      const obj = env.informer.getIndexer().getByKey('default/cm-0') as KubeObject & { data: Record<string, string> };
      assert.throws(() => void (obj.data['v'] = 'x'), TypeError);
    } finally {
      await env.close();
    }
  });
});
