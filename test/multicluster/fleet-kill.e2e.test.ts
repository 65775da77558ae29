// A fleet over two replica PROCESSES (test/multicluster/fixtures/fleet-replica.ts), sharded by cluster,
// on a hub and six members served in this process: the replicas split the members, one is SIGKILLed,
// and the survivor takes its members over one lease duration after the dead replica's last renewal (derived below) — while no
// member is ever reconciled by both replicas at once, during the start-up split or the takeover. Each
// process prints when every reconcile starts and ends (wall-clock milliseconds); a reconcile the kill
// cut short counts as running until the kill.
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ConfigMapResource, LeaseResource } from 'kube-converge/meta';
import { TestFleet, eventually } from 'kube-converge/testing';
import { LOAD_STRETCH, PROCESS_START_MS, type LeaseTimings } from '../e2e/load-bounds.js';
import { FixtureProcess, wallMs } from '../e2e/fixture-process.js';

const fixture = fileURLToPath(new URL('./fixtures/fleet-replica.ts', import.meta.url));
const MEMBERS = 6;
const SHARDS = 4;
// Leases short enough for a quick test and long enough that replicas starved of CPU on a loaded
// 2-core machine do not miss a renewal: 2 s at rest, stretched with the load (twice that at a load of
// 16, which LOAD_STRETCH measures as 8), in whole seconds as a Lease records it. Every bound below is
// derived from these settings.
const STRETCH = LOAD_STRETCH / 4;
const LEASE: LeaseTimings = {
  leaseDurationMs: 1_000 * Math.round(2 * STRETCH),
  renewDeadlineMs: Math.round(1_200 * STRETCH),
  retryPeriodMs: Math.round(200 * STRETCH),
};
/**
 * The promise: a dead replica's Leases stay valid one lease duration after its last renewal (no later
 * than the kill), timed from when the survivor saw that renewal on its watch of the Leases, and the
 * survivor runs a round at that instant. The rest is work, not waiting: up to two rounds (its member
 * Lease may expire a moment before its shard Leases, written after it in the same round), each a list
 * and writes to the hub, then engaging the clusters (a list from each member) — a retry period for
 * each round, as the coordinator gives its rounds, stretched with the load like the lease.
 */
const TAKEOVER_MS = LEASE.leaseDurationMs + 2 * LEASE.retryPeriodMs;

interface Interval {
  replica: string;
  cluster: string;
  start: number;
  /** Undefined while running, or forever when the process died in it. */
  end?: number;
}

class Replica extends FixtureProcess {
  owned: number[] = [];
  /** When `owned` last changed, as the replica printed it. */
  ownedAt = 0;
  readonly engaged = new Map<string, number>();
  readonly intervals = new Map<number, Interval>();
  killedAt: number | undefined;

  constructor(
    readonly identity: string,
    env: Record<string, string>,
  ) {
    super(fixture, { ...env, IDENTITY: identity });
  }

  protected line(l: Record<string, unknown>): void {
    const at = l['at'] as number;
    if (Array.isArray(l['owned'])) [this.owned, this.ownedAt] = [l['owned'] as number[], at];
    else if (typeof l['engaged'] === 'string') this.engaged.set(l['engaged'], at);
    else if (typeof l['disengaged'] === 'string') this.engaged.delete(l['disengaged']);
    else if (typeof l['cluster'] === 'string')
      this.intervals.set(l['n'] as number, { replica: this.identity, cluster: l['cluster'], start: l['start'] as number });
    else this.intervals.get(l['n'] as number)!.end = l['end'] as number;
  }

  /** Its reconciles, a cut-short one ending at the kill. */
  reconciles(): Interval[] {
    return [...this.intervals.values()].map((i) => (i.end === undefined && this.killedAt !== undefined ? { ...i, end: this.killedAt } : i));
  }

  /** The first reconcile of `cluster` that started at or after `since`. */
  firstReconcile(cluster: string, since: number): number | undefined {
    let first: number | undefined;
    for (const i of this.intervals.values())
      if (i.cluster === cluster && i.start >= since && (first === undefined || i.start < first)) first = i.start;
    return first;
  }

  kill(): void {
    this.child.kill('SIGKILL');
    // The kernel ends the process before it runs again: nothing it does is later than this.
    this.killedAt = wallMs();
  }

  async stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exited;
  }
}

/** No two replicas' reconciles of one cluster overlap (an unfinished one runs until now). */
function assertNoOverlap(replicas: readonly Replica[]): void {
  const now = wallMs();
  const all = replicas.flatMap((r) => r.reconciles());
  for (const a of all) {
    for (const b of all) {
      if (a.replica === b.replica || a.cluster !== b.cluster) continue;
      assert.ok((a.end ?? now) <= b.start || (b.end ?? now) <= a.start, `${a.cluster} reconciled by ${a.replica} and ${b.replica} at once`);
    }
  }
}

/** Waits for `pred`; a timeout names every replica's shards, clusters and stderr. */
async function until(replicas: readonly Replica[], pred: () => boolean, what: string, timeoutMs: number): Promise<void> {
  try {
    await eventually(pred, { timeoutMs, intervalMs: 10 });
  } catch (err) {
    const state = replicas.map(
      (r) => `${r.identity}: shards [${r.owned.join(',')}] clusters [${[...r.engaged.keys()].join(',')}] ${r.stderr.slice(-500)}`,
    );
    throw new Error(`${what} not reached within ${timeoutMs} ms:\n${state.join('\n')}`, { cause: err });
  }
}

describe('a fleet over two replica processes', () => {
  let testFleet: TestFleet;
  const replicas: Replica[] = [];

  before(async () => {
    testFleet = await TestFleet.start({ members: MEMBERS });
    for (const m of testFleet.members()) await m.env.client.create(ConfigMapResource, { metadata: { name: 'app', namespace: 'default' } });
  });
  after(async () => {
    for (const r of replicas) r.child.kill('SIGKILL');
    await Promise.all(replicas.map((r) => r.exited));
    await testFleet.stop();
  });

  it("moves a SIGKILLed replica's clusters to the survivor one lease duration after its last renewal, never reconciling a cluster in both", async (t: TestContext) => {
    const env = {
      KUBECONFIG: testFleet.hub.kubeconfigPath,
      FLEET_NAMESPACE: testFleet.namespace,
      SHARDS: String(SHARDS),
      LEASE_MS: String(LEASE.leaseDurationMs),
      RENEW_MS: String(LEASE.renewDeadlineMs),
      RETRY_MS: String(LEASE.retryPeriodMs),
    };
    // When each replica last wrote a Lease, as the hub applied it (this process's clock, as `wallMs`).
    const lastWrite = new Map<string, number>();
    const leases = await testFleet.hub.client.watch(LeaseResource, { namespace: 'default' });
    t.after(() => leases.close());
    void (async () => {
      for await (const e of leases)
        if (e.type !== 'ERROR' && e.type !== 'BOOKMARK') lastWrite.set(e.object.spec?.holderIdentity ?? '', wallMs());
    })();
    const group = [new Replica('a', env), new Replica('b', env)];
    replicas.push(...group);
    const names = testFleet.members().map((m) => m.name);
    const holders = (cluster: string) => group.filter((r) => r.engaged.has(cluster));
    // Settled: the shards split 2 + 2, each cluster engaged by one replica and reconciled there since.
    await until(
      group,
      () =>
        group.every((r) => r.owned.length === SHARDS / 2) &&
        names.every((c) => {
          const [holder, ...others] = holders(c);
          return holder !== undefined && others.length === 0 && holder.firstReconcile(c, holder.engaged.get(c)!) !== undefined;
        }),
      'the split',
      PROCESS_START_MS + TAKEOVER_MS,
    );
    const [victim, survivor] = group[0]!.engaged.size >= group[1]!.engaged.size ? [group[0]!, group[1]!] : [group[1]!, group[0]!];
    const itsShards = [...victim.owned];
    const itsClusters = [...victim.engaged.keys()];
    assert.ok(itsClusters.length >= MEMBERS / 2, `${victim.identity} holds ${itsClusters.join(', ')}`);

    victim.kill();
    const killedAt = victim.killedAt!;
    const lastRenewal = lastWrite.get(victim.identity)!;
    // Watched for a while longer than the promise, so a late takeover fails on the bound below, not here.
    await until(
      [survivor],
      () =>
        itsShards.every((s) => survivor.owned.includes(s)) && itsClusters.every((c) => survivor.firstReconcile(c, killedAt) !== undefined),
      `${victim.identity}'s shards and clusters taken over by ${survivor.identity}`,
      2 * TAKEOVER_MS + PROCESS_START_MS,
    );
    // Engaging follows the opening of each shard at once; `owned` is polled, so it is seen a little later.
    const engaged = Math.max(...itsClusters.map((c) => survivor.engaged.get(c)!)) - killedAt;
    const shardsSeen = survivor.ownedAt - killedAt;
    const resumed = Math.max(...itsClusters.map((c) => survivor.firstReconcile(c, killedAt)!)) - killedAt;
    const sinceRenewal = engaged + killedAt - lastRenewal;
    t.diagnostic(
      `${victim.identity} held ${itsClusters.length} clusters in shards [${itsShards.join(',')}] and last renewed ` +
        `${Math.round(killedAt - lastRenewal)} ms before its SIGKILL; ${survivor.identity} engaged its clusters ` +
        `${Math.round(engaged)} ms after the kill, ${Math.round(sinceRenewal)} ms after that renewal ` +
        `(${(engaged / LEASE.leaseDurationMs).toFixed(2)} and ${(sinceRenewal / LEASE.leaseDurationMs).toFixed(2)} lease durations; its shards ` +
        `seen held at ${Math.round(shardsSeen)} ms) and reconciled them ${Math.round(resumed)} ms after the kill ` +
        `(lease ${LEASE.leaseDurationMs} ms, retry ${LEASE.retryPeriodMs} ms: bound ${TAKEOVER_MS} ms after the last renewal)`,
    );
    assert.ok(
      sinceRenewal >= LEASE.leaseDurationMs,
      `the survivor took the clusters ${Math.round(sinceRenewal)} ms after the last renewal`,
    );
    assert.ok(
      sinceRenewal <= TAKEOVER_MS,
      `the survivor engaged the dead replica's clusters ${Math.round(sinceRenewal)} ms after its last renewal`,
    );
    assertNoOverlap(group);
    assert.doesNotMatch(survivor.stderr, /Reconciler error/, survivor.stderr);
    assert.equal(await survivor.stop(), 0);
  });
});
