// Leadership handed over without a restart, in process against a local API server, lease settings
// stretched with the measured load. With `onLoss: 'rejoin'` a manager whose Lease is taken from it
// aborts the reconcile in flight, refuses writes, campaigns again and, once it wins, reconciles
// everything afresh, and its `start` never rejects. A voluntary hand-over (a rolling update: the
// leader stops with `releaseOnCancel`, a new standby joins) is repeated 20 times with every reconcile's
// interval recorded per manager: no two managers ever reconcile at once, and each successor leads
// sooner than the lease could have expired. The hand-over latencies are printed as diagnostics.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { startApiServer } from 'kube-converge/apiserver';
import { createClient, isNotFound } from 'kube-converge/client';
import { controllerManagedBy, newPredicateFuncs } from 'kube-converge/controller';
import { createManager, type Manager } from 'kube-converge/manager';
import { ConfigMapResource, LeaseResource, noopLogger, type ObjectOf } from 'kube-converge/meta';
import { eventually, restConfigFor } from 'kube-converge/testing';
import { LOAD_STRETCH, takeoverBoundMs } from '../e2e/load-bounds.js';

type ConfigMap = ObjectOf<typeof ConfigMapResource>;
const NS = 'default';
// As in the leader-election end-to-end test: 2 s leases at rest, twice that at a load of 16.
const STRETCH = LOAD_STRETCH / 4;
const lease = {
  namespace: NS,
  leaseDurationMs: Math.round(2_000 * STRETCH),
  renewDeadlineMs: Math.round(1_200 * STRETCH),
  retryPeriodMs: Math.round(200 * STRETCH),
};
const isPrimary = newPredicateFuncs<ConfigMap>((o) => o.metadata.labels?.['role'] === 'primary');
const primary = (name: string): ConfigMap => ({ metadata: { name, namespace: NS, labels: { role: 'primary' } } });

interface Interval {
  who: string;
  start: number;
  end: number;
}

/** Asserts that no reconcile interval of one manager overlaps one of another manager. */
function assertNoOverlap(all: Interval[]): void {
  const sorted = [...all].sort((x, y) => x.start - y.start);
  const lastEnd = new Map<string, Interval>();
  for (const iv of sorted) {
    for (const [who, other] of lastEnd) {
      if (who !== iv.who && other.end > iv.start) {
        assert.fail(`${other.who} reconciled ${other.start}–${other.end} while ${iv.who} reconciled ${iv.start}–${iv.end}`);
      }
    }
    const prev = lastEnd.get(iv.who);
    if (!prev || iv.end > prev.end) lastEnd.set(iv.who, iv);
  }
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

describe('leadership handed over without a restart', () => {
  it('with onLoss rejoin, aborts the reconcile in flight on a loss, refuses writes, then leads again and reconciles afresh; start never rejects', async () => {
    const api = await startApiServer({ port: 0 });
    const admin = createClient({ config: restConfigFor(api) });
    const id = 'rejoin';
    const mgr = await createManager({
      config: restConfigFor(api),
      logger: noopLogger,
      gracefulShutdownTimeoutMs: 2_000,
      leaderElection: { ...lease, id, identity: 'a', onLoss: 'rejoin' },
    });
    const reconciled: string[] = [];
    let aborted: unknown;
    controllerManagedBy(mgr)
      .for(ConfigMapResource, { predicates: [isPrimary] })
      .named('rejoining')
      .withOptions({ maxConcurrentReconciles: 2 })
      .complete(async (req, { signal }) => {
        reconciled.push(req.name);
        if (req.name !== 'slow') return;
        // Waits for its signal, as a reconcile blocked on a slow call would.
        await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })).catch(
          (err: unknown) => {
            aborted ??= err;
            throw err;
          },
        );
      });
    const run = mgr.start();
    try {
      await mgr.elected();
      await admin.create(ConfigMapResource, primary('one'));
      await admin.create(ConfigMapResource, primary('slow'));
      await eventually(() => reconciled.includes('one') && reconciled.includes('slow'));

      // Another party takes the Lease behind a's back, as after a long pause of a's process.
      const held = await admin.get(LeaseResource, { namespace: NS, name: id });
      const now = new Date().toISOString().replace('Z', '000Z');
      await admin.update(LeaseResource, { ...held, spec: { ...held.spec, holderIdentity: 'intruder', renewTime: now, acquireTime: now } });
      await eventually(() => aborted !== undefined, { timeoutMs: takeoverBoundMs(lease), message: 'the reconcile in flight aborted' });
      assert.match(String(aborted), /LEADER_ELECTION_LOST|lost/i);
      assert.equal(mgr.isLeader(), false);
      await assert.rejects(mgr.client.create(ConfigMapResource, primary('refused')), { code: 'CONVERGE_WRITE_FENCED' });
      await admin.create(ConfigMapResource, primary('two'));

      // The intruder never renews: a wins the Lease back once it expired, and starts over from its cache.
      const before = reconciled.length;
      await eventually(() => mgr.isLeader(), { timeoutMs: 2 * takeoverBoundMs(lease), message: 'a leading again' });
      await eventually(() => ['one', 'slow', 'two'].every((n) => reconciled.slice(before).includes(n)), {
        timeoutMs: takeoverBoundMs(lease),
        message: `every object reconciled again: ${reconciled.join(', ')}`,
      });
      await mgr.client.create(ConfigMapResource, primary('written'));
      const renewed = await admin.get(LeaseResource, { namespace: NS, name: id });
      assert.equal(renewed.spec?.holderIdentity, 'a');
      await mgr.shutdown();
      await run;
    } finally {
      await mgr.shutdown();
      admin.close();
      await api.stop();
    }
  });

  it('hands over on a voluntary stop 20 times in a row (a rolling update), with no two managers reconciling at once', async (t) => {
    const api = await startApiServer({ port: 0 });
    const admin = createClient({ config: restConfigFor(api) });
    const id = 'rolling';
    await admin.create(ConfigMapResource, primary('tick'));
    const intervals: Interval[] = [];
    const beat = { namespace: NS, name: 'beat' };
    const all: Manager[] = [];

    /** A replica that writes in every reconcile; resolves `campaigning` once it runs for the Lease. */
    const replica = async (who: string) => {
      const mgr: Manager = await createManager({
        config: restConfigFor(api),
        logger: noopLogger,
        leaderElection: { ...lease, id, identity: who, releaseOnCancel: true, onLoss: 'rejoin' },
      });
      all.push(mgr);
      controllerManagedBy(mgr)
        .for(ConfigMapResource, { predicates: [newPredicateFuncs((o) => o.metadata.name === 'tick')] })
        .named('rolling')
        .complete(async () => {
          const start = performance.now();
          try {
            const data = { by: who };
            await mgr.client
              .patch(ConfigMapResource, beat, { data }, 'merge')
              .catch((err: unknown) =>
                isNotFound(err) ? mgr.client.create(ConfigMapResource, { metadata: beat, data }) : Promise.reject(err),
              );
          } finally {
            intervals.push({ who, start, end: performance.now() });
          }
          return { requeueAfter: 20 };
        });
      let campaigning!: () => void;
      const ready = new Promise<void>((resolve) => (campaigning = resolve));
      // Runs on every replica, right before the manager starts campaigning.
      mgr.add({ needLeaderElection: () => false, start: async () => campaigning() });
      let electedAt = Infinity;
      void mgr.elected().then(() => (electedAt = performance.now()));
      const run = mgr.start();
      await ready;
      return { who, mgr, run, electedAt: () => electedAt };
    };

    let leader = await replica('r0');
    const handovers: number[] = [];
    try {
      await leader.mgr.elected();
      let standby = await replica('r1');
      for (let i = 1; i <= 20; i++) {
        const from = leader.who;
        // A few reconciles per term, so that the stop meets one in flight or about to start.
        await eventually(() => intervals.filter((iv) => iv.who === from).length >= 5, { message: `${from} reconciling` });
        const stoppedAt = performance.now();
        await leader.mgr.shutdown();
        await leader.run;
        await standby.mgr.elected();
        const took = standby.electedAt() - stoppedAt;
        handovers.push(took);
        // Without the release the successor would have waited for the lease to expire.
        assert.ok(took < lease.leaseDurationMs, `hand-over ${i} took ${took} ms`);
        leader = standby;
        standby = await replica(`r${i + 1}`);
      }
      const last = leader.who;
      await eventually(() => intervals.some((iv) => iv.who === last), { message: `${last} reconciling` });
      await standby.mgr.shutdown();
      await standby.run;
    } finally {
      await Promise.all(all.map((m) => m.shutdown()));
      admin.close();
      await api.stop();
    }
    assertNoOverlap(intervals);
    assert.equal(new Set(intervals.map((iv) => iv.who)).size, 21, 'every leader reconciled');
    const sorted = [...handovers].sort((a, b) => a - b);
    t.diagnostic(
      `hand-over (stop called → successor leads), retry period ${lease.retryPeriodMs} ms, ${sorted.length} runs: ` +
        `p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms; ` +
        `${intervals.length} reconciles, none overlapping`,
    );
  });
});
