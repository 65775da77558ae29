// Informer staleness on a fake clock, through a manager over an in-memory list/watch client (the
// private FakeClient of the cache tests): while the watch delivers, the cache is confirmed current by
// a LIST limit=1 every 5 s and stays ready; once the watch stops delivering (paused, as a hung
// connection) while the server keeps changing, the kind is stale within staleAfterMs (10 s) — the
// gauge, /readyz and the opt-in delete guard all say so — and an idle cluster never counts as stale.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createManager, type Manager } from 'kube-converge/manager';
import { ConfigMapResource, FakeClock, noopLogger } from 'kube-converge/meta';
import { FakeClient, cm, settle } from '../cache/fake-client.js';

const STALE_AFTER_MS = 10_000;
const READ_MS = 5_000;

async function start(options: { guardDeletes: boolean }) {
  const clock = new FakeClock(0);
  const api = new FakeClient();
  api.upsert(cm('seed'));
  const mgr = await createManager({
    client: api,
    clock,
    logger: noopLogger,
    healthProbeBindAddress: '127.0.0.1:0',
    staleness: { consistentReadMs: READ_MS, staleAfterMs: STALE_AFTER_MS, guardDeletes: options.guardDeletes },
  });
  await mgr.getInformer(ConfigMapResource);
  const run = mgr.start();
  await settle();
  const { healthProbe } = await mgr.listening();
  return { clock, api, mgr, run, readyz: `${healthProbe!}/readyz/informer-staleness` };
}

async function gauge(mgr: Manager): Promise<number | undefined> {
  const metric = await mgr.metrics.registry.getSingleMetric('converge_informer_staleness_seconds')!.get();
  return metric.values.find((v) => v.labels['resource'] === 'configmaps')?.value;
}

/** Advances the fake clock by one second, the server changing once in it when `write` is set. */
async function tick(ctx: { clock: FakeClock; api: FakeClient }, write: boolean, n: number): Promise<void> {
  if (write) ctx.api.upsert(cm(`obj-${n % 5}`));
  await ctx.clock.advance(1_000);
  await settle();
}

const deleteRefusal = async (mgr: Manager): Promise<string | undefined> =>
  mgr.client.delete(ConfigMapResource, { namespace: 'default', name: 'seed' }).then(
    () => undefined,
    (err: { code?: string; why?: string }) => (err.code === 'CONVERGE_WRITE_FENCED' ? (err.why ?? '') : undefined),
  );

describe('informer staleness', () => {
  it('reports a watch that stopped delivering as stale within staleAfterMs, in the gauge, /readyz and the delete guard', async (t) => {
    const ctx = await start({ guardDeletes: true });
    try {
      let worstHealthy = 0;
      for (let s = 0; s < 30; s++) {
        await tick(ctx, true, s);
        worstHealthy = Math.max(worstHealthy, (await gauge(ctx.mgr)) ?? Infinity);
      }
      assert.ok(worstHealthy < STALE_AFTER_MS / 1000, `a delivering watch stayed under the threshold (worst ${worstHealthy} s)`);
      assert.equal((await fetch(ctx.readyz)).status, 200);
      assert.equal(await deleteRefusal(ctx.mgr), undefined, 'a delete is sent while the cache is current');

      ctx.api.watch0.paused = true;
      const frozenAt = ctx.clock.now();
      let detectedAt: number | undefined;
      for (let s = 0; s < 20 && detectedAt === undefined; s++) {
        await tick(ctx, true, s);
        if ((await gauge(ctx.mgr))! >= STALE_AFTER_MS / 1000) detectedAt = ctx.clock.now();
      }
      assert.ok(detectedAt !== undefined && detectedAt - frozenAt <= STALE_AFTER_MS, `stale ${detectedAt! - frozenAt} ms after the freeze`);
      t.diagnostic(`worst staleness while delivering ${worstHealthy} s; stale ${detectedAt! - frozenAt} ms after the watch froze`);
      const readyz = await fetch(ctx.readyz);
      assert.equal(readyz.status, 500);
      assert.match(await readyz.text(), /configmaps is \d+\.\d s stale/);
      assert.equal(await deleteRefusal(ctx.mgr), 'cache-stale');
      const lists = ctx.api.lists().filter((o) => o.limit === 1).length;
      assert.ok(lists <= Math.ceil((ctx.clock.now() - 0) / READ_MS) + 1, `${lists} consistent reads in ${ctx.clock.now()} ms`);
    } finally {
      await ctx.mgr.shutdown();
      await ctx.run;
    }
  });

  it('refuses consistent reads more often than every 5 s, and a threshold not above the read period', async () => {
    const client = new FakeClient();
    await assert.rejects(createManager({ client, logger: noopLogger, staleness: { consistentReadMs: 1_000 } }), {
      code: 'CONVERGE_INVALID_OPTION',
      path: 'staleness.consistentReadMs',
    });
    await assert.rejects(createManager({ client, logger: noopLogger, staleness: { staleAfterMs: READ_MS } }), {
      code: 'CONVERGE_INVALID_OPTION',
      path: 'staleness.staleAfterMs',
    });
  });

  it('never counts a quiet cluster as stale, and sends deletes when the guard is off', async () => {
    const ctx = await start({ guardDeletes: false });
    try {
      ctx.api.watch0.paused = true; // nothing would be delivered anyway: nothing changes
      for (let s = 0; s < 40; s++) await tick(ctx, false, s);
      assert.ok((await gauge(ctx.mgr))! < STALE_AFTER_MS / 1000);
      assert.equal((await fetch(ctx.readyz)).status, 200);
      for (let s = 0; s < 15; s++) await tick(ctx, true, s);
      assert.equal((await fetch(ctx.readyz)).status, 500, 'stale once the server changes without the watch');
      assert.equal(await deleteRefusal(ctx.mgr), undefined, 'no guard: the delete is sent');
    } finally {
      await ctx.mgr.shutdown();
      await ctx.run;
    }
  });
});
