// The write fence of the manager's client; imports the private ShardGate, which has no public face.
// On a clock that can jump like a process waking from a freeze: once a leader's renew deadline has
// passed, a write made by work already in flight is refused locally with WriteFencedError and never reaches the client, before any timer ran; a write already in
// flight when the fence closes is aborted; a standby's writes and a leader's writes inside the deadline
// pass; and a shard lost at its renew deadline fences its namespaces until it is owned again.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError, type Client } from 'kube-converge/client';
import { createManager } from 'kube-converge/manager';
import { ConfigMapResource, FakeClock, noopLogger, type KubeObject, type Status } from 'kube-converge/meta';
import { ShardGate } from '../../src/manager/sharding/index.js';
import { DisturbedClock } from './disturbed-clock.js';

const timings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };
const leaderElection = { id: 'op', namespace: 'ns', identity: 'me', ...timings };

/**
 * A client that keeps Leases in memory with resourceVersion checks, and records every other create it
 * is asked to send. `hang` makes those creates wait until their signal aborts; `failRenewals` makes
 * Lease updates fail, as a partition would.
 */
function recordingClient(): { client: Client; sent: string[]; hang: { on: boolean }; failRenewals: { on: boolean } } {
  const leases = new Map<string, KubeObject>();
  const sent: string[] = [];
  const hang = { on: false };
  const failRenewals = { on: false };
  let rv = 0;
  const key = (o: { namespace?: string | undefined; name?: string | undefined }) => `${o.namespace ?? ''}/${o.name ?? ''}`;
  const fail = (code: number, reason: string): never => {
    throw new StatusError({ apiVersion: 'v1', kind: 'Status', status: 'Failure', code, reason, message: reason, metadata: {} } as Status);
  };
  const store = (obj: KubeObject): KubeObject => {
    const written = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++rv) } };
    leases.set(key(obj.metadata), written);
    return structuredClone(written);
  };
  const verbs = {
    get: async (_r: unknown, nn: { namespace?: string; name: string }) => structuredClone(leases.get(key(nn)) ?? fail(404, 'NotFound')),
    create: async (r: { kind: string }, obj: KubeObject, o?: { signal?: AbortSignal }) => {
      if (r.kind === 'Lease') return leases.has(key(obj.metadata)) ? fail(409, 'AlreadyExists') : store(obj);
      if (hang.on) {
        await new Promise((_resolve, reject) => o?.signal?.addEventListener('abort', () => reject(o.signal!.reason), { once: true }));
      }
      sent.push(`create ${key(obj.metadata)}`);
      return obj;
    },
    update: async (_r: unknown, obj: KubeObject) => {
      if (failRenewals.on) fail(503, 'ServiceUnavailable');
      const current = leases.get(key(obj.metadata));
      if (!current || current.metadata.resourceVersion !== obj.metadata.resourceVersion) fail(409, 'Conflict');
      return store(obj);
    },
  };
  const client = new Proxy(verbs, {
    get: (target, verb) =>
      verb in target ? target[verb as keyof typeof verbs] : () => Promise.reject(new Error(`unexpected API call: ${String(verb)}`)),
  }) as unknown as Client;
  return { client, sent, hang, failRenewals };
}

const configMap = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name } });

describe('the write fence of the manager client', () => {
  it('refuses the write of a reconcile that was in flight across a pause past the renew deadline, before any timer ran', async () => {
    const fake = new FakeClock(0);
    const clock = new DisturbedClock(fake);
    const { client, sent } = recordingClient();
    const mgr = await createManager({ client, clock, logger: noopLogger, leaderElection });
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let reconcileSignal: AbortSignal | undefined;
    const outcome = new Promise<unknown>((resolve) => {
      mgr.add({
        needLeaderElection: () => true,
        start: async (signal) => {
          reconcileSignal = signal;
          await mgr.client.create(ConfigMapResource, configMap('before'));
          await paused;
          resolve(await mgr.client.create(ConfigMapResource, configMap('after')).catch((err: unknown) => err));
        },
      });
    });
    const run = mgr.start();
    await mgr.elected();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(sent, ['create default/before']);
    clock.wake(timings.renewDeadlineMs);
    resume();
    const err = (await outcome) as { code?: string; why?: string; verb?: string; object?: string };
    assert.equal(err.code, 'CONVERGE_WRITE_FENCED');
    assert.equal(err.why, 'leadership-lost');
    assert.equal(err.object, 'ConfigMap default/after');
    assert.deepEqual(sent, ['create default/before'], 'the refused write was never sent');
    assert.equal(reconcileSignal?.aborted, true, 'the refusal ended leadership: the in-flight work was told to stop');
    await assert.rejects(run, { code: 'CONVERGE_LEADER_ELECTION_LOST' });
  });

  it('aborts a write still in flight when the renew deadline passes with renewals failing', async () => {
    const fake = new FakeClock(0);
    const { client, sent, hang, failRenewals } = recordingClient();
    const mgr = await createManager({ client, clock: fake, logger: noopLogger, leaderElection });
    const run = mgr.start();
    const lost = assert.rejects(run, { code: 'CONVERGE_LEADER_ELECTION_LOST' });
    await mgr.elected();
    hang.on = true;
    failRenewals.on = true;
    const write = mgr.client.create(ConfigMapResource, configMap('slow'));
    const refused = assert.rejects(write, { code: 'CONVERGE_LEADER_ELECTION_LOST' });
    await fake.advance(timings.renewDeadlineMs);
    await refused;
    await lost;
    assert.deepEqual(sent, []);
    await assert.rejects(mgr.client.create(ConfigMapResource, configMap('later')), {
      code: 'CONVERGE_WRITE_FENCED',
      why: 'leadership-lost',
    });
  });

  it("lets a leader write inside its renew deadline, and a standby's runnables write before it ever led", async () => {
    const fake = new FakeClock(0);
    const clock = new DisturbedClock(fake);
    const { client, sent } = recordingClient();
    const standby = await createManager({ client, clock, logger: noopLogger, leaderElection: { ...leaderElection, identity: 'other' } });
    const leader = await createManager({ client, clock, logger: noopLogger, leaderElection });
    const runLeader = leader.start();
    await leader.elected();
    const runStandby = standby.start();
    await fake.advance(timings.retryPeriodMs);
    assert.equal(standby.isLeader(), false);
    await standby.client.create(ConfigMapResource, configMap('from-standby'));
    clock.wake(timings.renewDeadlineMs - 1);
    await leader.client.create(ConfigMapResource, configMap('from-leader'));
    assert.deepEqual(sent, ['create default/from-standby', 'create default/from-leader']);
    await standby.shutdown();
    await leader.shutdown();
    await runStandby;
    await runLeader;
  });
});

describe('the shard gate remembers lost shards', () => {
  const gate = () => new ShardGate({ shardOf: (req) => (req.namespace ? (req.namespace === 'a' ? 0 : 1) : undefined) });

  it('reports a shard closed by a loss as lost until it is opened again, and a released one never', async () => {
    const g = gate();
    g.open(0);
    g.open(1);
    await g.lose(0);
    await g.close(1);
    assert.equal(g.lostShardOf('a'), 0);
    assert.equal(g.lostShardOf('b'), undefined, 'a release drains first and is no loss');
    assert.equal(g.lostShardOf(''), undefined, 'cluster-scoped objects are not sharded');
    g.open(0);
    assert.equal(g.lostShardOf('a'), undefined);
  });
});
