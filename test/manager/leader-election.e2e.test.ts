// End-to-end leader election: two managers against one local API server, short leases.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import { createClient } from 'kube-converge/client';
import { controllerManagedBy, newPredicateFuncs } from 'kube-converge/controller';
import { createManager, type Manager } from 'kube-converge/manager';
import { ConfigMapResource, LeaseResource, noopLogger, type ObjectOf } from 'kube-converge/meta';
import { eventually, restConfigFor } from 'kube-converge/testing';
import { inProcessLease } from '../e2e/load-bounds.js';

type ConfigMap = ObjectOf<typeof ConfigMapResource>;
const NS = 'default';
// Leases short enough for a quick test and long enough that the managers, starved of CPU on a loaded
// 2-core machine, do not miss a renewal (`inProcessLease`: 4 s up to a load of 16, longer above it).
// Every bound below is derived from these settings.
const lease = {
  id: 'e2e-operator',
  namespace: NS,
  ...inProcessLease({ leaseDurationMs: 2_000, renewDeadlineMs: 1_200, retryPeriodMs: 200 }),
};
const isPrimary = newPredicateFuncs<ConfigMap>((o) => o.metadata.labels?.['role'] === 'primary');
const primary = (name: string): ConfigMap => ({ metadata: { name, namespace: NS, labels: { role: 'primary' } } });

async function member(
  server: RunningApiServer,
  identity: string,
  seen: Map<string, string[]>,
  metricsBindAddress?: string,
): Promise<Manager> {
  const mgr = await createManager({
    config: restConfigFor(server),
    logger: noopLogger,
    leaderElection: { ...lease, identity },
    gracefulShutdownTimeoutMs: 2_000,
    ...(metricsBindAddress ? { metricsBindAddress } : {}),
  });
  controllerManagedBy(mgr)
    .for(ConfigMapResource, { predicates: [isPrimary] })
    .named('elected')
    .complete(async (req) => {
      seen.set(identity, [...(seen.get(identity) ?? []), req.name]);
    });
  return mgr;
}

describe('leader election end to end', () => {
  it('lets only the leader reconcile, and hands over within the lease duration when the leader stops', async () => {
    const api = await startApiServer({ port: 0 });
    const admin = createClient({ config: restConfigFor(api) });
    const seen = new Map<string, string[]>();
    const a = await member(api, 'a', seen);
    const b = await member(api, 'b', seen, '127.0.0.1:0');
    const runA = a.start();
    try {
      await a.elected();
      const runB = b.start();
      await admin.create(ConfigMapResource, primary('one'));
      await eventually(() => seen.get('a')?.includes('one') ?? false);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(seen.get('b'), undefined);
      assert.equal(a.isLeader(), true);
      assert.equal(b.isLeader(), false);

      const stoppedAt = Date.now();
      await a.shutdown();
      await runA;
      await b.elected();
      const handover = Date.now() - stoppedAt;
      // The successor waits one lease duration from the last change it observed, polling every retry period.
      assert.ok(handover <= lease.leaseDurationMs + 7 * lease.retryPeriodMs, `handover took ${handover} ms`);
      const held = await admin.get(LeaseResource, { namespace: NS, name: lease.id });
      assert.equal(held.spec?.holderIdentity, 'b');
      assert.equal(held.spec?.leaseTransitions, 1);

      await admin.create(ConfigMapResource, primary('two'));
      await eventually(() => seen.get('b')?.includes('two') ?? false);
      assert.equal(seen.get('a')?.includes('two'), false);
      const text = await (await fetch(`${(await b.listening()).metrics}/metrics`)).text();
      assert.match(text, /^leader_election_master_status\{name="e2e-operator"\} 1$/m);
      await b.shutdown();
      await runB;
    } finally {
      await a.shutdown();
      await b.shutdown();
      admin.close();
      await api.stop();
    }
  });

  it('stops reconciling at once and rejects start when the lease is lost', async () => {
    const api = await startApiServer({ port: 0 });
    const admin = createClient({ config: restConfigFor(api) });
    const seen = new Map<string, string[]>();
    const a = await member(api, 'a', seen);
    const runA = a.start();
    try {
      await a.elected();
      // Another party takes the lease behind a's back (as after a long pause of a's process).
      const held = await admin.get(LeaseResource, { namespace: NS, name: lease.id });
      const now = new Date().toISOString().replace('Z', '000Z');
      await admin.update(LeaseResource, { ...held, spec: { ...held.spec, holderIdentity: 'intruder', renewTime: now, acquireTime: now } });
      await assert.rejects(runA, { code: 'CONVERGE_LEADER_ELECTION_LOST' });
      assert.equal(a.isLeader(), false);
      await admin.create(ConfigMapResource, primary('after-loss'));
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(seen.get('a')?.includes('after-loss') ?? false, false);
    } finally {
      await a.shutdown();
      admin.close();
      await api.stop();
    }
  });

  it('releases the lease on a clean stop when asked, so the successor takes over at its next retry', async () => {
    const api = await startApiServer({ port: 0 });
    const seen = new Map<string, string[]>();
    const mk = (identity: string) =>
      createManager({ config: restConfigFor(api), logger: noopLogger, leaderElection: { ...lease, identity, releaseOnCancel: true } });
    const a = await mk('a');
    const b = await mk('b');
    const runA = a.start();
    try {
      await a.elected();
      const runB = b.start();
      await new Promise((r) => setTimeout(r, 150));
      const stoppedAt = Date.now();
      await a.shutdown();
      await runA;
      await b.elected();
      assert.ok(Date.now() - stoppedAt < lease.leaseDurationMs, 'the successor did not wait for the lease to expire');
      await b.shutdown();
      await runB;
      assert.equal(seen.size, 0);
    } finally {
      await a.shutdown();
      await b.shutdown();
      await api.stop();
    }
  });
});
