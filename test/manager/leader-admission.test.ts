// The manager's reconcile admission under leader election, on a clock that can jump like a process
// waking from a freeze: a leader-elected controller's request is admitted only while the fence is
// open, refused the moment the renew deadline passed (before any timer ran), and a controller that
// does not need leader election is admitted on every replica. With onLoss rejoin, a loss aborts the
// leader runnables, refuses writes, and the next term starts only once they returned.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError, type Client } from 'kube-converge/client';
import type { Runnable } from 'kube-converge/controller';
import { createManager } from 'kube-converge/manager';
import { ConfigMapResource, FakeClock, noopLogger, type KubeObject, type Status } from 'kube-converge/meta';
import { DisturbedClock } from './disturbed-clock.js';

const timings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** A client that stores Leases in memory with resourceVersion checks; any other call fails loudly. */
function leaseClient(): { client: Client; leases: Map<string, KubeObject> } {
  const leases = new Map<string, KubeObject>();
  let rv = 0;
  const key = (o: { namespace?: string; name: string }) => `${o.namespace ?? ''}/${o.name}`;
  const fail = (code: number, reason: string): never => {
    throw new StatusError({ apiVersion: 'v1', kind: 'Status', status: 'Failure', code, reason, message: reason, metadata: {} } as Status);
  };
  const store = (obj: KubeObject): KubeObject => {
    const written = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++rv) } };
    leases.set(key(obj.metadata as { name: string }), written);
    return structuredClone(written);
  };
  const verbs = {
    get: async (_r: unknown, nn: { namespace?: string; name: string }) => structuredClone(leases.get(key(nn)) ?? fail(404, 'NotFound')),
    create: async (_r: unknown, obj: KubeObject) =>
      leases.has(key(obj.metadata as { name: string })) ? fail(409, 'AlreadyExists') : store(obj),
    update: async (_r: unknown, obj: KubeObject) => {
      const current = leases.get(key(obj.metadata as { name: string }));
      if (!current || current.metadata.resourceVersion !== obj.metadata.resourceVersion) fail(409, 'Conflict');
      return store(obj);
    },
  };
  const client = new Proxy(verbs, {
    get: (target, verb) =>
      verb in target ? target[verb as keyof typeof verbs] : () => Promise.reject(new Error(`unexpected API call: ${String(verb)}`)),
  }) as unknown as Client;
  return { client, leases };
}

const leaderElected: Runnable = { start: async () => {}, needLeaderElection: () => true };
const everyReplica: Runnable = { start: async () => {}, needLeaderElection: () => false };
const req = { namespace: 'default', name: 'x' };

describe('reconcile admission under leader election', () => {
  it('admits while the fence is open and refuses the moment a pause outlasted the renew deadline, then start rejects as lost', async () => {
    const fake = new FakeClock(0);
    const clock = new DisturbedClock(fake);
    const mgr = await createManager({
      client: leaseClient().client,
      clock,
      logger: noopLogger,
      leaderElection: { id: 'op', namespace: 'ns', identity: 'me', ...timings },
    });
    const run = mgr.start();
    await mgr.elected();
    const admission = mgr.admitReconcile(req, leaderElected);
    assert.ok(admission);
    admission.done();
    clock.wake(timings.renewDeadlineMs - 1);
    assert.notEqual(mgr.admitReconcile(req, leaderElected), undefined, 'still inside the deadline');
    clock.wake(1);
    // No timer has run since the wake-up: the admission check itself closes the fence.
    assert.equal(mgr.admitReconcile(req, leaderElected), undefined);
    assert.equal(mgr.isLeader(), false);
    const outcome = assert.rejects(run, { code: 'CONVERGE_LEADER_ELECTION_LOST' });
    await fake.advance(timings.retryPeriodMs);
    await outcome;
  });

  it('refuses a leader-elected request while another replica leads, and admits one that needs no leader election', async () => {
    const fake = new FakeClock(0);
    const { client, leases } = leaseClient();
    const now = new Date(0).toISOString().replace('Z', '000Z');
    leases.set('ns/op', {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { namespace: 'ns', name: 'op', resourceVersion: '100' },
      spec: { holderIdentity: 'other', leaseDurationSeconds: 15, acquireTime: now, renewTime: now, leaseTransitions: 0 },
    } as KubeObject);
    const mgr = await createManager({
      client,
      clock: fake,
      logger: noopLogger,
      leaderElection: { id: 'op', namespace: 'ns', identity: 'me', ...timings },
    });
    const run = mgr.start();
    await fake.advance(timings.retryPeriodMs);
    assert.equal(mgr.isLeader(), false);
    assert.equal(mgr.admitReconcile(req, leaderElected), undefined);
    assert.notEqual(mgr.admitReconcile(req, everyReplica), undefined);
    await mgr.shutdown();
    await run;
  });
});

describe('rejoining the election after a loss', () => {
  it('aborts the leader runnables on a loss, refuses writes, and starts them again only once they returned and the lease is won', async () => {
    const fake = new FakeClock(0);
    const clock = new DisturbedClock(fake);
    const mgr = await createManager({
      client: leaseClient().client,
      clock,
      logger: noopLogger,
      leaderElection: { id: 'op', namespace: 'ns', identity: 'me', ...timings, onLoss: 'rejoin' },
    });
    const terms: AbortSignal[] = [];
    let drained!: () => void;
    const draining = new Promise<void>((resolve) => (drained = resolve));
    mgr.add({
      needLeaderElection: () => true,
      start: async (signal) => {
        terms.push(signal);
        if (terms.length === 1) await draining; // the first term's work outlives its signal
      },
    });
    const run = mgr.start();
    let settled = false;
    void run.finally(() => (settled = true));
    await mgr.elected();
    assert.equal(terms.length, 1);
    clock.wake(timings.renewDeadlineMs);
    assert.equal(mgr.isLeader(), false, 'the check closes the fence');
    assert.equal(terms[0]!.aborted, true);
    await assert.rejects(mgr.client.create(ConfigMapResource, { metadata: { namespace: 'ns', name: 'x' } }), {
      code: 'CONVERGE_WRITE_FENCED',
    });
    // The Lease still names this replica, so a campaign would win at once: it waits for the drain.
    await fake.advance(3 * timings.retryPeriodMs);
    assert.equal(terms.length, 1);
    assert.equal(mgr.isLeader(), false);
    drained();
    await fake.advance(timings.retryPeriodMs);
    assert.equal(terms.length, 2, 'a new term started the runnable again');
    assert.equal(terms[1]!.aborted, false);
    assert.equal(mgr.isLeader(), true);
    assert.equal(settled, false, 'start does not reject on a loss');
    await mgr.shutdown();
    await run;
    assert.equal(terms[1]!.aborted, true);
  });
});
