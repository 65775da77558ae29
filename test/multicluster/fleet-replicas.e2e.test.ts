// Two replicas of a fleet operator sharing its member clusters through shard Leases (sharding by
// cluster): each cluster is reconciled by one replica, and when one replica is cut off from the hub
// (its Lease renewals fail, as if it had crashed) the other takes its clusters over within a lease
// duration, never reconciling a cluster while the first still may; asked about a cluster it does not
// hold, a replica's explain names the one that does.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, noopLogger } from 'kube-converge/meta';
import { Fleet, fleetControllerManagedBy } from 'kube-converge/multicluster';
import { PartitionProxy, TestFleet, eventually } from 'kube-converge/testing';
import type { Manager } from 'kube-converge/manager';

// Short enough for a quick test, long enough that a loaded 2-core machine does not miss a renewal.
const timings = { leaseDurationMs: 2_000, renewDeadlineMs: 1_200, retryPeriodMs: 200 };
const MEMBERS = 6;

interface Interval {
  replica: string;
  cluster: string;
  start: number;
  end: number;
}

/** A replica: a local manager sharded by cluster (its hub connection through `hubUrl`) and its fleet. */
async function replica(
  testFleet: TestFleet,
  identity: string,
  server: string,
  log: Interval[],
): Promise<{ local: Manager; run: Promise<void> }> {
  const local = await testFleet.hub.newManager({
    config: { ...testFleet.hub.restConfig(), server },
    logger: noopLogger,
    gracefulShutdownTimeoutMs: 2_000,
    sharding: { shards: 4, id: 'fleet-op', namespace: 'default', identity, by: 'cluster', ...timings },
  });
  const fleet = new Fleet({ local, provider: testFleet.provider() });
  fleetControllerManagedBy(fleet)
    .for(ConfigMapResource)
    .complete(async (req) => {
      const start = performance.now();
      await new Promise((r) => setTimeout(r, 3));
      log.push({ replica: identity, cluster: req.cluster, start, end: performance.now() });
      return { requeueAfter: 50 };
    });
  return { local, run: local.start() };
}

function assertNoOverlap(log: readonly Interval[]): void {
  for (const a of log) {
    for (const b of log) {
      if (a.replica === b.replica || a.cluster !== b.cluster) continue;
      assert.ok(a.end <= b.start || b.end <= a.start, `${a.cluster} reconciled by ${a.replica} and ${b.replica} at once`);
    }
  }
}

const reconcilersOf = (log: readonly Interval[], cluster: string, since = 0) => [
  ...new Set(log.filter((i) => i.cluster === cluster && i.start >= since).map((i) => i.replica)),
];

describe('a fleet over two replicas', () => {
  it('gives each cluster to one replica, and all of them to the survivor within a lease duration after the other is cut off', async () => {
    await using testFleet = await TestFleet.start({ members: MEMBERS });
    for (const m of testFleet.members()) await m.env.client.create(ConfigMapResource, { metadata: { name: 'app', namespace: 'default' } });
    const hub = new URL(testFleet.hub.url);
    const proxyA = await PartitionProxy.start({ host: hub.hostname, port: Number(hub.port) });
    const log: Interval[] = [];
    const a = await replica(testFleet, 'a', `${hub.protocol}//${hub.hostname}:${proxyA.port}`, log);
    const b = await replica(testFleet, 'b', testFleet.hub.url, log);
    try {
      await eventually(() => a.local.ownedShards().length + b.local.ownedShards().length === 4 && a.local.ownedShards().length > 0, {
        timeoutMs: 10 * timings.leaseDurationMs,
      });
      const names = testFleet.members().map((m) => m.name);
      await eventually(() => names.every((c) => reconcilersOf(log, c).length > 0), { timeoutMs: 5 * timings.leaseDurationMs });
      // Settled: from now on, each cluster has exactly one reconciling replica.
      const settled = performance.now() + timings.retryPeriodMs;
      await eventually(() => names.every((c) => reconcilersOf(log, c, settled).length === 1), { timeoutMs: 5 * timings.leaseDurationMs });
      const ofA = names.filter((c) => reconcilersOf(log, c, settled)[0] === 'a');
      assert.ok(ofA.length > 0, 'replica a reconciles some clusters');
      // Asked about a cluster it does not hold, b's explain names the replica that does.
      await assert.rejects(b.local.explain(ConfigMapResource, { namespace: 'default', name: 'app' }, { cluster: ofA[0]! }), {
        code: 'CONVERGE_CLUSTER_NOT_ENGAGED',
        message: new RegExp(`^cluster "${ofA[0]}": not engaged by this replica: it is in shard \\d+, owned by replica "a"`),
      });

      // a loses the hub: it stops at its renew deadline; b takes a's clusters once their Leases expire.
      const cut = performance.now();
      proxyA.partition();
      await eventually(() => ofA.every((c) => reconcilersOf(log, c, cut).includes('b')), {
        timeoutMs: timings.leaseDurationMs + 4 * timings.retryPeriodMs + 1_000,
      });
      const handedOver = Math.max(...ofA.map((c) => log.find((i) => i.cluster === c && i.replica === 'b' && i.start >= cut)!.start)) - cut;
      assert.ok(handedOver <= timings.leaseDurationMs + 4 * timings.retryPeriodMs, `hand-over took ${handedOver.toFixed(0)} ms`);
      assertNoOverlap(log);
    } finally {
      proxyA.heal();
      await Promise.all([a.local.shutdown(), b.local.shutdown()]);
      await Promise.allSettled([a.run, b.run]);
      await proxyA.stop();
    }
  });
});
