// Imports the manager's private shard ranges and sharder, to check which replica owns what.
// Sharding across real processes: replicas of a sharded operator (test/manager/fixtures/sharded-replica.ts),
// each its own Node process, on one `converge apiserver` process, SIGKILLed, started and SIGTERMed
// while ConfigMaps keep changing. Short Leases keep each test to a few seconds. Which shard a
// namespace falls in comes from the private sharding package, to check the split.
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createClient, loadKubeConfig, type Client } from 'kube-converge/client';
import { ConfigMapResource, NamespaceResource } from 'kube-converge/meta';
import { eventually } from 'kube-converge/testing';
import { startApiserverProcess, type ApiserverProcess } from '../e2e/apiserver-process.js';
import { LOAD_STRETCH, PROCESS_START_MS, type LeaseTimings } from '../e2e/load-bounds.js';
import { FixtureProcess, wallMs } from '../e2e/fixture-process.js';
import { namespaceSharder } from '../../src/manager/sharding/index.js';
import { namingSchemes } from './fixtures/naming-schemes.js';
import { shardRanges } from '../../src/manager/sharding/index.js';

const fixture = fileURLToPath(new URL('./fixtures/sharded-replica.ts', import.meta.url));
const SHARDS = 12;
const LEASE: LeaseTimings = { leaseDurationMs: 2_000, renewDeadlineMs: 1_200, retryPeriodMs: 200 };
const timings = {
  LEASE_MS: String(LEASE.leaseDurationMs),
  RENEW_MS: String(LEASE.renewDeadlineMs),
  RETRY_MS: String(LEASE.retryPeriodMs),
};
/** The promise: a crashed replica's shards are owned again within a lease duration and two retry periods. */
const BOUND_MS = LEASE.leaseDurationMs + 2 * LEASE.retryPeriodMs;
/**
 * The shards a crash moves between survivors (the assignment changes with the member count) are
 * handed over — freed, then taken at the taker's next round — so they may take one retry period more.
 */
const HANDOVER_MS = LEASE.retryPeriodMs;
const shardOf = namespaceSharder(shardRanges(SHARDS));

interface Interval {
  replica: string;
  ns: string;
  name: string;
  round: number;
  start: number;
  end: number;
}

class Replica extends FixtureProcess {
  owned: number[] = [];
  alive = true;
  readonly intervals: Interval[] = [];

  constructor(
    readonly identity: string,
    kubeconfig: string,
    shardingId: string,
  ) {
    super(fixture, { KUBECONFIG: kubeconfig, IDENTITY: identity, SHARDS: String(SHARDS), SHARDING_ID: shardingId, ...timings });
  }

  protected line(l: Record<string, unknown>): void {
    if (Array.isArray(l['owned'])) this.owned = l['owned'] as number[];
    else this.intervals.push({ replica: this.identity, ...(l as Omit<Interval, 'replica'>) });
  }

  crash(): void {
    this.alive = false;
    this.child.kill('SIGKILL');
  }

  async stop(): Promise<number | null> {
    this.alive = false;
    this.child.kill('SIGTERM');
    return this.exited;
  }
}

/** Every shard held by exactly one live replica. */
function fullyOwned(replicas: readonly Replica[]): boolean {
  const held = replicas.filter((r) => r.alive).flatMap((r) => r.owned);
  return held.length === SHARDS && new Set(held).size === SHARDS;
}

/** Every live replica holds floor(s/r) or ceil(s/r) shards and every shard is held. */
function balanced(replicas: readonly Replica[]): boolean {
  const live = replicas.filter((r) => r.alive);
  const lo = Math.floor(SHARDS / live.length);
  const hi = Math.ceil(SHARDS / live.length);
  return fullyOwned(replicas) && live.every((r) => r.owned.length >= lo && r.owned.length <= hi);
}

/**
 * Milliseconds from `from` until `shards` (default: all) are owned again by live replicas, which must
 * happen within `boundMs` stretched by load (the promise, kept on a machine slower than the one it
 * was written for).
 */
async function timeToOwned(replicas: readonly Replica[], from: number, boundMs: number, shards?: readonly number[]): Promise<number> {
  const owned = (): boolean => {
    const held = new Set(replicas.filter((r) => r.alive).flatMap((r) => r.owned));
    return shards ? shards.every((s) => held.has(s)) : fullyOwned(replicas);
  };
  const timeoutMs = Math.max(1, LOAD_STRETCH * boundMs - (wallMs() - from));
  await until(replicas, owned, shards ? `shards ${shards.join(',')} owned` : 'every shard owned', timeoutMs);
  return wallMs() - from;
}

/**
 * SIGKILLs `victim` and measures how long until its shards (within a lease and two retries), then all
 * shards (one handover more), are owned again.
 */
async function crashAndMeasure(
  replicas: readonly Replica[],
  victim: Replica,
  meanwhile: () => void,
): Promise<{ its: number; all: number }> {
  const its = [...victim.owned];
  const from = wallMs();
  victim.crash();
  meanwhile();
  return { its: await timeToOwned(replicas, from, BOUND_MS, its), all: await timeToOwned(replicas, from, BOUND_MS + HANDOVER_MS) };
}

/** Waits for `pred`; a timeout names every replica's shards and its stderr, to tell slow starts from churn. */
async function until(replicas: readonly Replica[], pred: () => boolean, what: string, timeoutMs: number): Promise<void> {
  try {
    await eventually(pred, { timeoutMs, intervalMs: 10 });
  } catch (err) {
    const state = replicas.map((r) => `${r.identity}${r.alive ? '' : ' (gone)'}: [${r.owned.join(',')}] ${r.stderr.slice(-500)}`);
    throw new Error(`${what} not reached within ${timeoutMs} ms:\n${state.join('\n')}`, { cause: err });
  }
}

function assertNoOverlap(replicas: readonly Replica[]): void {
  const byNs = new Map<string, Interval[]>();
  for (const i of replicas.flatMap((r) => r.intervals)) byNs.set(i.ns, [...(byNs.get(i.ns) ?? []), i]);
  for (const [ns, list] of byNs) {
    for (const a of list) {
      for (const b of list) {
        if (a.replica !== b.replica)
          assert.ok(a.end <= b.start || b.end <= a.start, `${ns} reconciled by ${a.replica} and ${b.replica} at once`);
      }
    }
  }
}

function assertNoReconcilerErrors(replicas: readonly Replica[]): void {
  for (const r of replicas) assert.doesNotMatch(r.stderr, /Reconciler error/, `${r.identity} logged reconciler errors:\n${r.stderr}`);
}

async function createNamespaces(admin: Client, namespaces: readonly string[]): Promise<void> {
  for (let i = 0; i < namespaces.length; i += 20) {
    await Promise.all(
      namespaces.slice(i, i + 20).map(async (ns) => {
        await admin.create(NamespaceResource, { metadata: { name: ns } });
        await admin.create(ConfigMapResource, { metadata: { name: 'app', namespace: ns }, data: { round: '0' } });
      }),
    );
  }
}

describe('sharding across processes', () => {
  let server: ApiserverProcess;
  let admin: Client;
  const replicas: Replica[] = [];
  const start = (identity: string, shardingId: string): Replica => {
    const r = new Replica(identity, server.kubeconfig, shardingId);
    replicas.push(r);
    return r;
  };

  before(async () => {
    server = await startApiserverProcess();
    // No client-side rate limit: the test creates hundreds of objects and patches 50 a second.
    admin = createClient({ config: { ...loadKubeConfig({ path: server.kubeconfig }), qps: -1 } });
  });
  after(async () => {
    for (const r of replicas) r.child.kill('SIGKILL');
    await Promise.all(replicas.map((r) => r.exited));
    await server.stop();
  });

  it('splits 12 shards 4+4+4 over 3 replicas, and for every naming scheme the busiest replica reconciles at most 1.5x the mean', async (t: TestContext) => {
    const t0 = wallMs();
    const group = [start('a', 'spread'), start('b', 'spread'), start('c', 'spread')];
    await until(group, () => balanced(group), 'balance', PROCESS_START_MS);
    t.diagnostic(`balanced after ${Math.round(wallMs() - t0)} ms`);
    assert.deepEqual(
      group.map((r) => r.owned.length),
      [4, 4, 4],
    );
    const schemes = namingSchemes(60);
    const namespaces = Object.values(schemes).flat();
    await createNamespaces(admin, namespaces);
    t.diagnostic(`namespaces created after ${Math.round(wallMs() - t0)} ms`);
    const reconciled = (ns: string): boolean => group.some((r) => r.intervals.some((i) => i.ns === ns));
    // Reconciling every new namespace once is the replicas' own work, bounded like their start-up.
    await eventually(() => namespaces.every(reconciled), { timeoutMs: PROCESS_START_MS });
    for (const [scheme, names] of Object.entries(schemes)) {
      const work = group.map((r) => new Set(r.intervals.filter((i) => names.includes(i.ns)).map((i) => i.ns)).size);
      t.diagnostic(`${scheme}: namespaces reconciled per replica ${work.join(' / ')} (mean ${names.length / group.length})`);
      assert.equal(
        work.reduce((a, b) => a + b),
        names.length,
        `${scheme}: each namespace on exactly one replica`,
      );
      assert.ok(Math.max(...work) <= 1.5 * (names.length / group.length), `${scheme}: ${work.join(' / ')}`);
    }
    for (const r of group)
      for (const i of r.intervals) assert.ok(r.owned.includes(shardOf(i.ns)), `${r.identity} reconciled ${i.ns} outside its shards`);
    assertNoOverlap(group);
    assertNoReconcilerErrors(group);
    assert.deepEqual(await Promise.all(group.map((r) => r.stop())), [0, 0, 0]);
  });

  it('re-owns every shard within a lease duration and two retry periods after SIGKILL + join, SIGTERM, and join + SIGKILL, without overlap or a lost last update', async (t: TestContext) => {
    const id = 'churn';
    const namespaces = namingSchemes(60)['team-1..']!.map((ns) => `churn-${ns}`);
    await createNamespaces(admin, namespaces);
    const group = [start('a', id), start('b', id), start('c', id)];
    await until(group, () => balanced(group), 'balance', PROCESS_START_MS);

    // ~50 updates a second, round-robin over the namespaces, until the churn is over.
    const last = new Map<string, number>();
    let updating = true;
    const updater = (async () => {
      for (let round = 1; updating; round++) {
        for (const ns of namespaces) {
          if (!updating) break;
          await admin.patch(ConfigMapResource, { namespace: ns, name: 'app' }, { data: { round: String(round) } }, 'merge');
          last.set(ns, round);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    })();

    try {
      // A crash, and a replica joining while the crashed one's Leases are still valid.
      const crash = await crashAndMeasure(group, group[1]!, () => group.push(start('d', id)));
      await until(group, () => balanced(group), 'balance', PROCESS_START_MS);

      // A graceful leave: it frees its shards, so they move within about a retry period.
      const from = wallMs();
      const leaving = group[2]!.stop();
      const leave = await timeToOwned(group, from, BOUND_MS + HANDOVER_MS);
      assert.equal(await leaving, 0);
      await until(group, () => balanced(group), 'balance', PROCESS_START_MS);

      // A join, then a crash before the newcomer took anything.
      group.push(start('e', id));
      await new Promise((r) => setTimeout(r, 200));
      const second = await crashAndMeasure(group, group[0]!, () => {});
      await until(group, () => balanced(group), 'balance', PROCESS_START_MS);
      const ms = (n: number): string => `${Math.round(n)} ms`;
      t.diagnostic(
        `after SIGKILL + join: its shards owned again in ${ms(crash.its)}, all in ${ms(crash.all)}; after SIGTERM: all in ${ms(leave)}; ` +
          `after join + SIGKILL: its shards in ${ms(second.its)}, all in ${ms(second.all)} (bound ${BOUND_MS} ms, +${HANDOVER_MS} ms for handovers, ` +
          `each times ${LOAD_STRETCH} for load)`,
      );
      assert.deepEqual(
        group.filter((r) => r.alive).map((r) => r.owned.length),
        [6, 6],
      );
    } finally {
      updating = false;
      await updater;
    }
    const live = group.filter((r) => r.alive);
    // The last update's reconcile follows once the survivors' queues drain, their own work.
    await eventually(() => namespaces.every((ns) => live.some((r) => r.intervals.some((i) => i.ns === ns && i.round === last.get(ns)))), {
      timeoutMs: PROCESS_START_MS,
    });
    assertNoOverlap(group);
    assertNoReconcilerErrors(group);
    assert.deepEqual(await Promise.all(live.map((r) => r.stop())), [0, 0]);
  });
});
