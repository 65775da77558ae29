// Imports the manager's private sharder, shard ranges and informer cache, to check each replica's share.
// End-to-end sharding: replicas splitting 4 namespace shards through Leases on one local API server.
// Which shard owns a namespace is read from the private sharding package, to predict the split.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import { createClient, isConflict, type Client } from 'kube-converge/client';
import { controllerManagedBy, newPredicateFuncs } from 'kube-converge/controller';
import { ShardNotOwnedError, createManager, type Manager } from 'kube-converge/manager';
import { namespaceSharder } from '../../src/manager/sharding/index.js';
import { InformerCache } from '../../src/manager/cache/index.js';
import { ConfigMapResource, LeaseResource, NamespaceResource, noopLogger, realClock, type ObjectOf } from 'kube-converge/meta';
import { eventually, restConfigFor } from 'kube-converge/testing';
import { LOAD_STRETCH, inProcessLease, takeoverBoundMs } from '../e2e/load-bounds.js';
import { shardRanges } from '../../src/manager/sharding/index.js';

type ConfigMap = ObjectOf<typeof ConfigMapResource>;
const SHARDS = 4;
// Leases short enough for a quick test, long enough that a loaded 2-core CI machine does not miss a
// renewal (`inProcessLease`: 4 s up to a load of 16, longer above it).
const timings = inProcessLease({ leaseDurationMs: 2_000, renewDeadlineMs: 1_200, retryPeriodMs: 200 });
// The most a shard movement may take (a join, a leave, a lost Lease, and the reconciles that follow
// it): a lease duration and two retry periods, stretched with the load. Every wait below is bounded by it.
const settleMs = takeoverBoundMs(timings);
const shardOf = namespaceSharder(shardRanges(SHARDS));
const isPrimary = newPredicateFuncs<ConfigMap>((o) => o.metadata.labels?.['role'] === 'primary');

/** Two namespaces in each of the 4 shards, so that every shard has work. */
function namespacesPerShard(): string[] {
  const byShard = new Map<number, string[]>();
  for (let k = 0; byShard.size < SHARDS || [...byShard.values()].some((l) => l.length < 2); k++) {
    const ns = `team-${k}`;
    const list = byShard.get(shardOf(ns)) ?? [];
    if (list.length < 2) list.push(ns);
    byShard.set(shardOf(ns), list);
  }
  return [...byShard.values()].flat();
}

interface Interval {
  replica: string;
  namespace: string;
  name: string;
  start: number;
  end: number;
}

async function replica(
  server: RunningApiServer,
  identity: string,
  log: Interval[],
  extra: { metricsBindAddress?: string; healthProbeBindAddress?: string; requeueAfterMs?: number } = {},
): Promise<Manager> {
  const { requeueAfterMs, ...endpoints } = extra;
  const mgr = await createManager({
    config: restConfigFor(server),
    logger: noopLogger,
    gracefulShutdownTimeoutMs: 2_000,
    ...endpoints,
    sharding: { shards: SHARDS, id: 'sharded-op', namespace: 'default', identity, ...timings },
  });
  controllerManagedBy(mgr)
    .for(ConfigMapResource, { predicates: [isPrimary] })
    .named('sharded')
    .withOptions({ maxConcurrentReconciles: 2 })
    .complete(async (req) => {
      const start = performance.now();
      await new Promise((r) => setTimeout(r, 3));
      log.push({ replica: identity, namespace: req.namespace ?? '', name: req.name, start, end: performance.now() });
      return requeueAfterMs === undefined ? {} : { requeueAfter: requeueAfterMs };
    });
  return mgr;
}

const primary = (namespace: string, name: string): ConfigMap => ({ metadata: { name, namespace, labels: { role: 'primary' } } });

async function touchAll(admin: Client, namespaces: readonly string[], round: number): Promise<void> {
  await Promise.all(
    namespaces.map(async (ns) => {
      const cm = await admin.get(ConfigMapResource, { namespace: ns, name: 'app' });
      await admin.update(ConfigMapResource, { ...cm, data: { round: String(round) } });
    }),
  );
}

/** Asserts that no namespace was ever reconciled by two replicas at overlapping times. */
function assertNoOverlap(log: readonly Interval[]): void {
  for (const a of log) {
    for (const b of log) {
      if (a.replica === b.replica || a.namespace !== b.namespace) continue;
      assert.ok(a.end <= b.start || b.end <= a.start, `${a.namespace} reconciled by ${a.replica} and ${b.replica} at once`);
    }
  }
}

describe('sharding end to end', () => {
  it('splits shards between replicas, reconciles each namespace on one, takes over on stop and rebalances on join without overlap', async () => {
    const api = await startApiServer({ port: 0 });
    const admin = createClient({ config: restConfigFor(api) });
    const namespaces = namespacesPerShard();
    const log: Interval[] = [];
    const managers: Manager[] = [];
    try {
      for (const ns of namespaces) await admin.create(NamespaceResource, { metadata: { name: ns } });
      const a = await replica(api, 'a', log, { metricsBindAddress: '127.0.0.1:0', healthProbeBindAddress: '127.0.0.1:0' });
      const b = await replica(api, 'b', log);
      managers.push(a, b);
      const runA = a.start();
      const runB = b.start();
      await eventually(() => a.ownedShards().length === 2 && b.ownedShards().length === 2, { timeoutMs: settleMs });
      assert.deepEqual([...a.ownedShards(), ...b.ownedShards()].sort(), [0, 1, 2, 3]);
      const { metrics, healthProbe } = await a.listening();
      assert.equal((await fetch(`${healthProbe}/readyz`)).status, 200);
      // The gauge follows ownership (read together, since a loaded machine may move a shard between two reads).
      const gauge = async (): Promise<number> => {
        const text = await (await fetch(`${metrics}/metrics`)).text();
        return Number(/^converge_manager_owned_shards\{name="sharded-op"\} (\d+)$/m.exec(text)?.[1]);
      };
      await eventually(async () => (await gauge()) === a.ownedShards().length, { timeoutMs: settleMs });

      // Every object is reconciled by exactly the replica owning its namespace's shard.
      for (const ns of namespaces) await admin.create(ConfigMapResource, primary(ns, 'app'));
      await eventually(() => namespaces.every((ns) => log.some((i) => i.namespace === ns)), { timeoutMs: settleMs });
      const owner = (ns: string): string => (a.ownedShards().includes(shardOf(ns)) ? 'a' : 'b');
      for (const ns of namespaces) {
        assert.deepEqual([...new Set(log.filter((i) => i.namespace === ns).map((i) => i.replica))], [owner(ns)], ns);
      }

      // a's cache holds nothing of b's shards: a read there throws, naming the namespace, shard and owner.
      const ofB = namespaces.find((ns) => owner(ns) === 'b')!;
      // The owner is named as a's last round saw the Leases: b may have taken the shard after it.
      const ownerNamed = (): unknown => {
        try {
          a.client.get(ConfigMapResource, { namespace: ofB, name: 'app' });
        } catch (err) {
          return (err as ShardNotOwnedError).owner;
        }
        return undefined;
      };
      await eventually(() => ownerNamed() === 'b', { timeoutMs: LOAD_STRETCH * 2 * timings.retryPeriodMs });
      assert.throws(
        () => a.client.get(ConfigMapResource, { namespace: ofB, name: 'app' }),
        (err: unknown) => {
          assert.ok(err instanceof ShardNotOwnedError);
          assert.equal(err.code, 'CONVERGE_SHARD_NOT_OWNED');
          assert.deepEqual([err.namespace, err.shard, err.owner], [ofB, shardOf(ofB), 'b']);
          assert.match(err.message, new RegExp(`namespace "${ofB}".*shard ${shardOf(ofB)}.*replica "b"`));
          return true;
        },
      );
      assert.throws(() => a.client.list(ConfigMapResource, { namespace: ofB }), { code: 'CONVERGE_SHARD_NOT_OWNED' });
      assert.equal(b.client.get(ConfigMapResource, { namespace: ofB, name: 'app' })?.metadata.name, 'app');
      // Explain on a says who owns it; on b it explains the reconcile.
      const elsewhere = await a.explain(ConfigMapResource, { namespace: ofB, name: 'app' });
      assert.deepEqual(elsewhere.shard, { shard: shardOf(ofB), owner: 'b', ownedHere: false });
      assert.deepEqual(elsewhere.controllers, []);
      assert.match(elsewhere.summary, /owned by replica "b" — ask that replica's \/debug\/converge/);
      // It judges the object itself: converged on its owner, converged here too.
      assert.equal(elsewhere.converged, true, elsewhere.summary);
      const here = await b.explain(ConfigMapResource, { namespace: ofB, name: 'app' });
      assert.equal(here.shard?.ownedHere, true);
      assert.equal(here.converged, true, here.summary);

      // b stops: a takes all 4 shards within the lease duration and reconciles b's namespaces.
      const orphaned = namespaces.filter((ns) => owner(ns) === 'b');
      const stoppingAt = performance.now();
      await b.shutdown();
      await runB;
      const stoppedAt = performance.now();
      await eventually(() => a.ownedShards().length === 4, { timeoutMs: settleMs, intervalMs: 10 });
      const takeover = performance.now() - stoppedAt;
      assert.ok(takeover <= timings.leaseDurationMs, `takeover took ${takeover} ms`);
      await eventually(() => orphaned.every((ns) => log.some((i) => i.replica === 'a' && i.namespace === ns && i.start > stoppingAt)), {
        timeoutMs: settleMs,
      });
      const leases = await admin.list(LeaseResource, { namespace: 'default' });
      assert.ok(!leases.items.some((l) => l.metadata.name === 'sharded-op-member-b'), 'a leaving replica deletes its member Lease');

      // c joins while every object keeps changing: a hands 2 shards over, never overlapping with c.
      const c = await replica(api, 'c', log);
      managers.push(c);
      const runC = c.start();
      let round = 0;
      const joinedAt = performance.now();
      while (!(a.ownedShards().length === 2 && c.ownedShards().length === 2) && performance.now() - joinedAt < settleMs) {
        await touchAll(admin, namespaces, ++round);
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(a.ownedShards().length, 2);
      assert.equal(c.ownedShards().length, 2);
      for (let k = 0; k < 5; k++) await touchAll(admin, namespaces, ++round);
      const last = round;
      // Every namespace converges on its new owner, and only there.
      await eventually(
        async () => {
          for (const ns of namespaces) {
            const o = a.ownedShards().includes(shardOf(ns)) ? 'a' : 'c';
            if (!log.some((i) => i.replica === o && i.namespace === ns && i.start > joinedAt)) return false;
          }
          return true;
        },
        { timeoutMs: settleMs },
      );
      assert.ok(last > 0);
      assert.ok(
        log.some((i) => i.replica === 'c'),
        'c reconciled nothing',
      );
      assertNoOverlap(log);
      // a reconciled c's namespaces before the handover; its explain forgets that and points at c.
      const handed = namespaces.find((ns) => c.ownedShards().includes(shardOf(ns)))!;
      const stale = await a.explain(ConfigMapResource, { namespace: handed, name: 'app' });
      assert.deepEqual(stale.controllers, []);
      assert.equal(stale.shard?.ownedHere, false);
      // a learns who took the shard at its next list of the Leases.
      await eventually(async () => (await a.explain(ConfigMapResource, { namespace: handed, name: 'app' })).shard?.owner === 'c', {
        timeoutMs: settleMs,
      });
      await a.shutdown();
      await c.shutdown();
      await Promise.all([runA, runC]);
    } finally {
      for (const m of managers) await m.shutdown();
      admin.close();
      await api.stop();
    }
  });

  it('stops reconciling a shard at once when another holder takes its Lease, queued requeues included, and does not take it back while that Lease is valid', async () => {
    const api = await startApiServer({ port: 0 });
    const admin = createClient({ config: restConfigFor(api) });
    const namespaces = namespacesPerShard();
    const log: Interval[] = [];
    // Every reconcile requeues itself, so the queue always holds keys of every shard.
    const a = await replica(api, 'a', log, { requeueAfterMs: 20 });
    try {
      for (const ns of namespaces) await admin.create(NamespaceResource, { metadata: { name: ns } });
      const runA = a.start();
      await eventually(() => a.ownedShards().length === SHARDS, { timeoutMs: settleMs });
      for (const ns of namespaces) await admin.create(ConfigMapResource, primary(ns, 'app'));
      await eventually(() => namespaces.every((ns) => log.some((i) => i.namespace === ns)), { timeoutMs: settleMs });
      // The intruder's write races a's renewals (every retry period): re-read and retry on a conflict.
      for (let attempt = 0; ; attempt++) {
        const held = await admin.get(LeaseResource, { namespace: 'default', name: 'sharded-op-shard-0' });
        assert.equal(held.spec?.holderIdentity, 'a');
        const now = new Date().toISOString().replace('Z', '000Z');
        try {
          await admin.update(LeaseResource, {
            ...held,
            spec: {
              ...held.spec,
              holderIdentity: 'intruder',
              leaseDurationSeconds: Math.ceil((4 * settleMs) / 1_000),
              renewTime: now,
              acquireTime: now,
            },
          });
          break;
        } catch (err) {
          if (!isConflict(err) || attempt >= 20) throw err;
        }
      }
      await eventually(() => !a.ownedShards().includes(0), { timeoutMs: settleMs, intervalMs: 10 });
      const lostAt = performance.now();
      for (const ns of namespaces) await admin.create(ConfigMapResource, primary(ns, 'late'));
      const elsewhere = namespaces.filter((ns) => shardOf(ns) !== 0);
      await eventually(() => elsewhere.every((ns) => log.some((i) => i.namespace === ns && i.name === 'late')), { timeoutMs: settleMs });
      await new Promise((r) => setTimeout(r, 5 * timings.retryPeriodMs));
      assert.deepEqual(
        log.filter((i) => shardOf(i.namespace) === 0 && i.start >= lostAt),
        [],
      );
      assert.ok(
        log.filter((i) => shardOf(i.namespace) !== 0 && i.start >= lostAt).length > elsewhere.length,
        'the other shards kept requeueing',
      );
      assert.deepEqual(a.ownedShards(), [1, 2, 3]);
      const after = await admin.get(LeaseResource, { namespace: 'default', name: 'sharded-op-shard-0' });
      assert.equal(after.spec?.holderIdentity, 'intruder');
      await a.shutdown();
      await runA;
    } finally {
      await a.shutdown();
      admin.close();
      await api.stop();
    }
  });

  it('hands a newly owned shard to the handlers only when told, once synced, and throws for reads in shards not owned', async () => {
    const api = await startApiServer({ port: 0 });
    const admin = createClient({ config: restConfigFor(api) });
    const namespaces = namespacesPerShard();
    const ctl = new AbortController();
    try {
      for (const ns of namespaces) {
        await admin.create(NamespaceResource, { metadata: { name: ns } });
        await admin.create(ConfigMapResource, primary(ns, 'app'));
      }
      const cache = new InformerCache({ client: admin, clock: realClock, shards: SHARDS, shardOwner: (shard) => `owner-of-${shard}` });
      const seen: string[] = [];
      cache.informerFor(ConfigMapResource).addEventHandler({
        onAdd: (o) => {
          seen.push(o.metadata.namespace!);
        },
      });
      const running = cache.start(ctl.signal);
      const [mine, other] = [namespaces.find((ns) => shardOf(ns) === 0)!, namespaces.find((ns) => shardOf(ns) === 1)!];
      await cache.setOwnedShards(new Set([0]));
      await cache.waitForShard(0, ctl.signal);
      assert.equal(cache.get(ConfigMapResource, { namespace: mine, name: 'app' })?.metadata.name, 'app');
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(seen, [], 'nothing is delivered before deliverShard');
      cache.deliverShard(0);
      await eventually(() => seen.length === 2);
      assert.deepEqual(seen.map(shardOf), [0, 0]);
      assert.throws(() => cache.get(ConfigMapResource, { namespace: other, name: 'app' }), {
        code: 'CONVERGE_SHARD_NOT_OWNED',
        namespace: other,
        shard: 1,
        owner: 'owner-of-1',
      });
      assert.throws(() => cache.list(ConfigMapResource, { namespace: other }), { code: 'CONVERGE_SHARD_NOT_OWNED' });
      assert.equal(cache.list(ConfigMapResource).length, 2, 'a list over all namespaces holds the owned shards');
      ctl.abort();
      await running;
    } finally {
      ctl.abort();
      admin.close();
      await api.stop();
    }
  });
});
