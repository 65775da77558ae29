// The shard coordinator on a fake clock over an in-memory Lease store: renew deadlines, and handing
// shards over only after their in-flight reconciles settled.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from 'kube-converge/client';
import { ShardCoordinator, ShardGate } from 'kube-converge/manager';
import { FakeClock, noopLogger, type KubeObject } from 'kube-converge/meta';

type Lease = KubeObject & {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string; acquireTime?: string; leaseTransitions?: number };
};

/** Leases kept in memory with resourceVersions and 409s, as the API server keeps them; `down` fails every call. */
function leaseStore() {
  const leases = new Map<string, Lease>();
  let rv = 0;
  const state = { down: false };
  const check = (): void => {
    if (state.down) throw new Error('connection refused');
  };
  const stored = (l: Lease): Lease => {
    const copy: Lease = { ...structuredClone(l), metadata: { ...l.metadata, resourceVersion: String(++rv) } };
    leases.set(copy.metadata.name!, copy);
    return structuredClone(copy);
  };
  const client = {
    async list() {
      check();
      return { items: [...leases.values()].map((l) => structuredClone(l)), metadata: {} };
    },
    async create(_r: unknown, l: Lease) {
      check();
      if (leases.has(l.metadata.name!)) throw new Error('409 AlreadyExists');
      return stored(l);
    },
    async update(_r: unknown, l: Lease) {
      check();
      if (leases.get(l.metadata.name!)?.metadata.resourceVersion !== l.metadata.resourceVersion) throw new Error('409 Conflict');
      return stored(l);
    },
  } as unknown as Client;
  return { client, leases, state, put: stored };
}

const timings = { leaseDurationMs: 1_000, renewDeadlineMs: 600, retryPeriodMs: 100 };
const gateOf = (): ShardGate => new ShardGate({ shardOf: (ns) => Number(ns.slice(2)) });

function coordinator(client: Client, clock: FakeClock, gate: ShardGate, shards: number): ShardCoordinator {
  return new ShardCoordinator({
    client,
    namespace: 'default',
    id: 'op',
    identity: 'a',
    shards,
    ...timings,
    gate,
    clock,
    logger: noopLogger,
    onOwnedChange: () => {},
  });
}

describe('shard coordinator', () => {
  it('closes every held shard at the renew deadline when renewals fail, before its Lease could expire for others', async () => {
    const clock = new FakeClock();
    const store = leaseStore();
    const gate = gateOf();
    const c = coordinator(store.client, clock, gate, 2);
    const ctl = new AbortController();
    const run = c.run(ctl.signal);
    await clock.advance(0);
    assert.deepEqual(c.owned(), [0, 1]);
    assert.equal(c.reconciledOnce(), true);
    assert.equal(store.leases.get('op-shard-0')?.spec?.holderIdentity, 'a');
    store.state.down = true;
    await clock.advance(timings.renewDeadlineMs - 1);
    assert.equal(gate.isOpen(0), true);
    await clock.advance(1);
    assert.equal(gate.isOpen(0), false);
    assert.equal(gate.isOpen(1), false);
    assert.deepEqual(c.owned(), []);
    assert.equal(gate.admit({ namespace: 'ns0', name: 'x' }), undefined);
    ctl.abort();
    await clock.runAll();
    await run;
  });

  it('hands its highest-numbered excess shards to a new member only after their in-flight reconciles settled', async () => {
    const clock = new FakeClock();
    const store = leaseStore();
    const gate = gateOf();
    const c = coordinator(store.client, clock, gate, 4);
    const ctl = new AbortController();
    const run = c.run(ctl.signal);
    await clock.advance(0);
    assert.deepEqual(c.owned(), [0, 1, 2, 3]);
    const inFlight = gate.admit({ namespace: 'ns3', name: 'busy' })!;
    const now = new Date(clock.now()).toISOString().replace('Z', '000Z');
    store.put({
      metadata: { name: 'op-member-b', namespace: 'default' },
      spec: { holderIdentity: 'b', leaseDurationSeconds: 1, renewTime: now, acquireTime: now },
    });
    await clock.advance(timings.retryPeriodMs);
    // Shard 3 stopped taking work at once, but its Lease stays ours while a reconcile runs.
    assert.equal(gate.isOpen(3), false);
    assert.equal(gate.admit({ namespace: 'ns3', name: 'new' }), undefined);
    assert.equal(store.leases.get('op-shard-3')?.spec?.holderIdentity, 'a');
    inFlight();
    await clock.advance(0);
    assert.equal(store.leases.get('op-shard-3')?.spec?.holderIdentity, '');
    assert.equal(store.leases.get('op-shard-2')?.spec?.holderIdentity, '');
    assert.deepEqual(c.owned(), [0, 1]);
    assert.equal(gate.isOpen(0), true);
    ctl.abort();
    await clock.runAll();
    await run;
    // A clean stop frees every shard and the member Lease.
    for (const name of ['op-shard-0', 'op-shard-1', 'op-member-a']) assert.equal(store.leases.get(name)?.spec?.holderIdentity, '', name);
  });

  it('takes over the shards of a member that stopped renewing once its Leases expired on our clock, not before', async () => {
    const clock = new FakeClock();
    const store = leaseStore();
    const now = new Date(clock.now()).toISOString().replace('Z', '000Z');
    const heldByB = { holderIdentity: 'b', leaseDurationSeconds: 1, renewTime: now, acquireTime: now };
    store.put({ metadata: { name: 'op-member-b', namespace: 'default' }, spec: heldByB });
    for (const shard of [2, 3]) store.put({ metadata: { name: `op-shard-${shard}`, namespace: 'default' }, spec: heldByB });
    const gate = gateOf();
    const c = coordinator(store.client, clock, gate, 4);
    const ctl = new AbortController();
    const run = c.run(ctl.signal);
    await clock.advance(0);
    assert.deepEqual(c.owned(), [0, 1]);
    await clock.advance(timings.leaseDurationMs - timings.retryPeriodMs);
    assert.deepEqual(c.owned(), [0, 1], "b's Leases are still valid");
    await clock.advance(timings.retryPeriodMs);
    assert.deepEqual(c.owned(), [0, 1, 2, 3]);
    assert.equal(gate.isOpen(3), true);
    assert.equal(store.leases.get('op-shard-3')?.spec?.holderIdentity, 'a');
    assert.equal(store.leases.get('op-shard-3')?.spec?.leaseTransitions, 1);
    ctl.abort();
    await clock.runAll();
    await run;
  });
});
