import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deletedObject } from 'kube-converge/cache';
import type { Client } from 'kube-converge/client';
import { ConfigMapResource, objectKey, type KubeObject } from 'kube-converge/meta';
import { configMap, startE2E } from './e2e-env.js';

const cmR = ConfigMapResource as unknown as Parameters<Client['create']>[0];
const WRITES = 20_000;
const KEYS = 400;
const WORKERS = 16;
const CUT_EVERY = 300;

describe('informer soak', () => {
  it('20,000 mixed writes with connections cut every 300 writes: store == server, the handler saw every final state, cut watches resumed without relisting', async (t) => {
    const env = await startE2E();
    // What one handler believes: key → last RV seen, or 'deleted'.
    const view = new Map<string, string>();
    let notifications = 0;
    env.informer.addEventHandler({
      onAdd: (o) => void (notifications++, view.set(objectKey(o), o.metadata.resourceVersion!)),
      onUpdate: (_old, o) => void (notifications++, view.set(objectKey(o), o.metadata.resourceVersion!)),
      onDelete: (o) => void (notifications++, view.set(objectKey(deletedObject(o)), 'deleted')),
    });
    try {
      await env.informer.waitForSync({ signal: AbortSignal.timeout(5000) });
      let done = 0;
      let seed = 12345;
      const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const worker = async (w: number): Promise<void> => {
        const live = new Map<number, KubeObject>();
        const mine = Array.from({ length: KEYS / WORKERS }, (_, i) => i * WORKERS + w);
        while (done < WRITES) {
          const k = mine[Math.floor(random() * mine.length)]!;
          const name = `soak-${k}`;
          const current = live.get(k);
          if (!current) live.set(k, await env.writer.create(cmR, configMap(name, { n: '0' })));
          else if (random() < 0.75) live.set(k, await env.writer.update(cmR, { ...current, data: { n: String(done) } }));
          else {
            await env.writer.delete(cmR, { namespace: 'default', name });
            live.delete(k);
          }
          if (++done % CUT_EVERY === 0) env.proxy.cut();
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      const stoppedAt = performance.now();
      await env.converged(120_000);
      const catchUpMs = performance.now() - stoppedAt;
      const list = await env.writer.list(ConfigMapResource, { namespace: 'default' });
      const server = new Map(list.items.map((o) => [objectKey(o), o.metadata.resourceVersion!]));
      for (const [key, rv] of server) assert.equal(view.get(key), rv, `handler lost the last update of ${key}`);
      for (const [key, state] of view) if (!server.has(key)) assert.equal(state, 'deleted', `handler missed the delete of ${key}`);
      const s = env.informer.status();
      assert.ok(env.proxy.cuts >= Math.floor(WRITES / CUT_EVERY));
      assert.ok(s.reconnects >= 10, `reconnects counted: ${JSON.stringify(s)}`);
      assert.ok(s.errors.network >= 10, JSON.stringify(s));
      assert.ok(s.relists <= 1, `cuts alone caused ${s.relists} relists: ${JSON.stringify(s)}`);
      // Every relist after the first waited for a backoff delay (>= 20 ms here) since the one before.
      const gaps = env.reader.listTimes.slice(1).map((t, i) => t - env.reader.listTimes[i]!);
      assert.ok(
        gaps.every((g) => g >= 19),
        `relists not backed off: ${gaps.filter((g) => g < 19).join(',')}`,
      );
      t.diagnostic(`catch-up after the writes stopped: ${Math.round(catchUpMs)} ms`);
      process.stdout.write(
        `# soak: ${WRITES} writes, ${env.proxy.cuts} cuts, ${s.reconnects} reconnects, ${env.reader.listTimes.length} lists, ${notifications} notifications, errors ${JSON.stringify(s.errors)}\n`,
      );
    } finally {
      await env.close();
    }
  });
});

describe('informer soak: 3,000 keys, frequent cuts, production backoff', () => {
  const KEYS_3K = 3_000;
  const UPDATES = 15_000;
  const CUT_EVERY_3K = 150;

  it('3,000-key informer with a connection cut every 150 updates: catches up after the writes stop, store == server, at most one relist', async (t) => {
    // The reflector's own default backoff (800 ms doubling to 30 s), as in production.
    const env = await startE2E({ informer: { reflector: { backoff: {} } } });
    const view = new Map<string, string>();
    env.informer.addEventHandler({
      onAdd: (o) => void view.set(objectKey(o), o.metadata.resourceVersion!),
      onUpdate: (_old, o) => void view.set(objectKey(o), o.metadata.resourceVersion!),
      onDelete: (o) => void view.set(objectKey(deletedObject(o)), 'deleted'),
    });
    try {
      const live: KubeObject[] = [];
      for (let i = 0; i < KEYS_3K; i += WORKERS) {
        const batch = Array.from({ length: Math.min(WORKERS, KEYS_3K - i) }, (_, j) =>
          env.writer.create(cmR, configMap(`k-${i + j}`, { n: '0' })),
        );
        live.push(...(await Promise.all(batch)));
      }
      await env.informer.waitForSync({ signal: AbortSignal.timeout(10_000) });
      await env.converged(30_000);
      const relistsBefore = env.informer.status().relists;

      let done = 0;
      let seed = 4242;
      const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const worker = async (w: number): Promise<void> => {
        // Each worker owns the keys ≡ w (mod WORKERS), so its updates never conflict.
        const mine = live.map((_, k) => k).filter((k) => k % WORKERS === w);
        while (done < UPDATES) {
          const k = mine[Math.floor(random() * mine.length)]!;
          live[k] = await env.writer.update(cmR, { ...live[k]!, data: { n: String(done) } });
          if (++done % CUT_EVERY_3K === 0) env.proxy.cut();
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      const stoppedAt = performance.now();

      // Writes have stopped: the server's state is final. Poll the cache (cheap) against it.
      const list = await env.writer.list(ConfigMapResource, { namespace: 'default' });
      const server = new Map(list.items.map((o) => [objectKey(o), o.metadata.resourceVersion!]));
      const cacheEqualsServer = (): boolean => {
        const items = env.informer.getIndexer().list();
        return items.length === server.size && items.every((o) => server.get(objectKey(o)) === o.metadata.resourceVersion);
      };
      while (!cacheEqualsServer()) {
        assert.ok(performance.now() - stoppedAt < 180_000, 'cache did not catch up within 180 s');
        await new Promise((r) => setTimeout(r, 10));
      }
      const catchUpMs = performance.now() - stoppedAt;
      const s = env.informer.status();
      t.diagnostic(
        `catch-up after the writes stopped: ${Math.round(catchUpMs)} ms (${KEYS_3K} keys, ${UPDATES} updates, ${env.proxy.cuts} cuts, ` +
          `${s.reconnects} reconnects, ${s.relists} relists, errors ${JSON.stringify(s.errors)})`,
      );

      await env.converged();
      for (const [key, rv] of server) assert.equal(view.get(key), rv, `handler lost the last update of ${key}`);
      assert.ok(env.proxy.cuts >= Math.floor(UPDATES / CUT_EVERY_3K));
      assert.ok(s.relists - relistsBefore <= 1, `cuts alone caused ${s.relists - relistsBefore} relists: ${JSON.stringify(s)}`);
    } finally {
      await env.close();
    }
  });
});
