// Imports the manager's private shard coordinator and gate, run on a fake clock.
// The shard coordinator on a fake clock over an in-memory Lease store: renew deadlines, handing
// shards over only after their in-flight reconciles settled, balance, and crashed replicas' Leases.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from 'kube-converge/client';
import { FakeClock, LeaseResource, noopLogger, type KubeObject } from 'kube-converge/meta';
import { assignedShards } from '../../src/manager/sharding/index.js';
import { ShardCoordinator, ShardGate } from '../../src/manager/sharding/index.js';

type Lease = KubeObject & {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string; acquireTime?: string; leaseTransitions?: number };
};

type LeaseEvent = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: Lease };

/**
 * Leases kept in memory with resourceVersions and 409s, as the API server keeps them; `down` fails
 * every call. With `watch`, lists carry a resourceVersion and the store serves watches of its writes.
 */
function leaseStore({ watch = false }: { watch?: boolean } = {}) {
  const leases = new Map<string, Lease>();
  let rv = 0;
  const state = { down: false };
  const watchers = new Set<(e: LeaseEvent) => void>();
  const emit = (type: LeaseEvent['type'], l: Lease): void => {
    for (const w of watchers) w({ type, object: structuredClone(l) });
  };
  const check = (): void => {
    if (state.down) throw new Error('connection refused');
  };
  const stored = (l: Lease): Lease => {
    const copy: Lease = { ...structuredClone(l), metadata: { ...l.metadata, resourceVersion: String(++rv) } };
    const type = leases.has(copy.metadata.name!) ? 'MODIFIED' : 'ADDED';
    leases.set(copy.metadata.name!, copy);
    emit(type, copy);
    return structuredClone(copy);
  };
  const client = {
    async list() {
      check();
      return { items: [...leases.values()].map((l) => structuredClone(l)), metadata: watch ? { resourceVersion: String(rv) } : {} };
    },
    async watch(_r: unknown, o: { signal?: AbortSignal }) {
      check();
      if (!watch) throw new Error('405 MethodNotAllowed');
      const queue: LeaseEvent[] = [];
      let wake: (() => void) | undefined;
      let closed = false;
      const push = (e: LeaseEvent): void => {
        queue.push(e);
        wake?.();
      };
      const close = (): void => {
        closed = true;
        watchers.delete(push);
        wake?.();
      };
      watchers.add(push);
      o.signal?.addEventListener('abort', close, { once: true });
      return {
        close,
        async *[Symbol.asyncIterator]() {
          while (!closed) {
            const e = queue.shift();
            if (e) yield e;
            else await new Promise<void>((r) => (wake = r));
          }
        },
      };
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
    async get(_r: unknown, nn: { name: string }) {
      check();
      const l = leases.get(nn.name);
      if (!l) throw Object.assign(new Error('404 NotFound'), { status: { code: 404, reason: 'NotFound' } });
      return structuredClone(l);
    },
    async delete(_r: unknown, nn: { name: string }, o?: { preconditions?: { resourceVersion?: string } }) {
      check();
      const l = leases.get(nn.name);
      if (!l) throw Object.assign(new Error('404 NotFound'), { status: { code: 404, reason: 'NotFound' } });
      const rv = o?.preconditions?.resourceVersion;
      if (rv !== undefined && rv !== l.metadata.resourceVersion) throw new Error('409 Conflict');
      leases.delete(nn.name);
      emit('DELETED', l);
      return structuredClone(l);
    },
  } as unknown as Client;
  return { client, leases, state, put: stored, watchers };
}

/** A client of `store` that fails every call while `who` is in `silent` (a crashed replica, to the others). */
function switchedClient(store: ReturnType<typeof leaseStore>, silent: ReadonlySet<string>, who: string): Client {
  return new Proxy(store.client, {
    get: (target, key) => {
      const f = (target as unknown as Record<string | symbol, unknown>)[key];
      if (typeof f !== 'function') return f;
      return async (...args: unknown[]) => {
        if (silent.has(who)) throw new Error('connection refused');
        return (f as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

const timings = { leaseDurationMs: 1_000, renewDeadlineMs: 600, retryPeriodMs: 100 };
const gateOf = (): ShardGate => new ShardGate({ shardOf: (req) => (req.namespace ? Number(req.namespace.slice(2)) : undefined) });

function coordinator(client: Client, clock: FakeClock, gate: ShardGate, shards: number, identity = 'a'): ShardCoordinator {
  return new ShardCoordinator({
    client,
    namespace: 'default',
    id: 'op',
    identity,
    shards,
    ...timings,
    gate,
    clock,
    logger: noopLogger,
    onOwnedChange: () => {},
  });
}

describe('shard coordinator', () => {
  it('closes every held shard at the renew deadline when renewals fail, before its Lease could expire for others, aborting its reconciles in flight', async () => {
    const clock = new FakeClock();
    const store = leaseStore();
    const gate = gateOf();
    const c = coordinator(store.client, clock, gate, 2);
    const ctl = new AbortController();
    const run = c.run(ctl.signal);
    await clock.advance(0);
    assert.deepEqual(c.owned(), [], 'the first round only announces the member');
    assert.equal(c.reconciledOnce(), false);
    await clock.advance(timings.retryPeriodMs);
    assert.deepEqual(c.owned(), [0, 1]);
    assert.equal(c.reconciledOnce(), true);
    assert.equal(store.leases.get('op-shard-0')?.spec?.holderIdentity, 'a');
    const inFlight = gate.admit({ namespace: 'ns0', name: 'busy' })!;
    store.state.down = true;
    await clock.advance(timings.renewDeadlineMs - 1);
    assert.equal(gate.isOpen(0), true);
    assert.equal(inFlight.signal?.aborted, false);
    await clock.advance(1);
    assert.equal(gate.isOpen(0), false);
    assert.equal(gate.isOpen(1), false);
    assert.equal(inFlight.signal?.aborted, true, 'the reconcile in flight is cut at the deadline');
    assert.deepEqual(c.owned(), []);
    assert.equal(gate.admit({ namespace: 'ns0', name: 'x' }), undefined);
    inFlight.done();
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
    await clock.advance(timings.retryPeriodMs);
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
    inFlight.done();
    await clock.advance(0);
    assert.equal(store.leases.get('op-shard-3')?.spec?.holderIdentity, '');
    assert.equal(store.leases.get('op-shard-2')?.spec?.holderIdentity, '');
    assert.deepEqual(c.owned(), [0, 1]);
    assert.equal(gate.isOpen(0), true);
    ctl.abort();
    await clock.runAll();
    await run;
    // A clean stop frees every shard and deletes the member Lease.
    for (const name of ['op-shard-0', 'op-shard-1']) assert.equal(store.leases.get(name)?.spec?.holderIdentity, '', name);
    assert.equal(store.leases.has('op-member-a'), false);
  });

  it('joins only after watching a silent member for a lease duration, then deletes its member Lease and takes its shards', async () => {
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
    // b may be alive and renewing: a cannot tell yet, so it neither joins nor takes anything.
    assert.deepEqual(c.owned(), []);
    assert.equal(c.reconciledOnce(), false);
    assert.equal(store.leases.has('op-member-a'), false);
    assert.equal(c.holderOf(2), 'b');
    await clock.advance(timings.leaseDurationMs - timings.retryPeriodMs);
    assert.deepEqual(c.owned(), [], "b's Leases are still valid");
    await clock.advance(timings.retryPeriodMs);
    assert.equal(store.leases.has('op-member-a'), true, 'a joined');
    await clock.advance(timings.retryPeriodMs);
    assert.deepEqual(c.owned(), [0, 1, 2, 3]);
    assert.equal(c.reconciledOnce(), true);
    assert.equal(store.leases.has('op-member-b'), false, "b's expired member Lease is deleted");
    assert.equal(gate.isOpen(3), true);
    assert.equal(store.leases.get('op-shard-3')?.spec?.holderIdentity, 'a');
    assert.equal(store.leases.get('op-shard-3')?.spec?.leaseTransitions, 1);
    ctl.abort();
    await clock.runAll();
    await run;
    assert.equal(store.leases.has('op-member-a'), false, 'a clean stop deletes the member Lease');
  });

  it('joins at once beside members that renew, and never deletes the member Lease of one that renewed', async () => {
    const clock = new FakeClock();
    const store = leaseStore();
    const a = coordinator(store.client, clock, gateOf(), 12, 'a');
    const ctl = new AbortController();
    const runA = a.run(ctl.signal);
    await clock.advance(timings.retryPeriodMs);
    assert.deepEqual(a.owned().length, 12);
    const b = coordinator(store.client, clock, gateOf(), 12, 'b');
    const runB = b.run(ctl.signal);
    for (let i = 0; i < 5; i++) await clock.advance(timings.retryPeriodMs);
    assert.deepEqual(a.owned(), [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(b.owned(), [6, 7, 8, 9, 10, 11]);
    for (let i = 0; i < 30; i++) await clock.advance(timings.retryPeriodMs);
    assert.ok(store.leases.has('op-member-a') && store.leases.has('op-member-b'), 'live members keep their Leases');
    ctl.abort();
    await clock.runAll();
    await Promise.all([runA, runB]);
  });

  it("gives 12 shards over 5 members 3+3+2+2+2 and re-owns a silent member's shards within a lease duration and two retry periods, a newcomer joining meanwhile", async () => {
    const clock = new FakeClock();
    const store = leaseStore();
    const names = ['a', 'b', 'c', 'd', 'e'];
    const ctl = new AbortController();
    // Each member talks to the store through its own switch, so one can fall silent (a crash, to the others).
    const silent = new Set<string>();
    const clientOf = (who: string): Client => switchedClient(store, silent, who);
    const members = new Map(names.map((n) => [n, coordinator(clientOf(n), clock, gateOf(), 12, n)]));
    const runs = [...members.values()].map((m) => m.run(ctl.signal));
    for (let i = 0; i < 10; i++) await clock.advance(timings.retryPeriodMs);
    assert.deepEqual(
      names.map((n) => members.get(n)!.owned()),
      names.map((n) => assignedShards(n, names, 12)),
    );
    assert.deepEqual(
      names.map((n) => members.get(n)!.owned().length),
      [3, 3, 2, 2, 2],
    );

    silent.add('b');
    const crashedAt = clock.monotonicMs();
    await clock.advance(timings.leaseDurationMs / 2);
    const f = coordinator(clientOf('f'), clock, gateOf(), 12, 'f');
    members.set('f', f);
    runs.push(f.run(ctl.signal));
    const live = ['a', 'c', 'd', 'e', 'f'];
    const allOwned = (): boolean => new Set(live.flatMap((n) => members.get(n)!.owned())).size === 12;
    while (!allOwned()) await clock.advance(timings.retryPeriodMs);
    const reOwnedAfter = clock.monotonicMs() - crashedAt;
    assert.ok(reOwnedAfter <= timings.leaseDurationMs + 2 * timings.retryPeriodMs, `every shard owned again after ${reOwnedAfter} ms`);
    assert.equal(store.leases.has('op-member-b'), false);
    for (let i = 0; i < 20; i++) await clock.advance(timings.retryPeriodMs);
    assert.deepEqual(
      live.map((n) => members.get(n)!.owned()),
      live.map((n) => assignedShards(n, live, 12)),
    );
    ctl.abort();
    await clock.runAll();
    await Promise.all(runs);
  });

  describe('following the Leases with a watch', () => {
    /** a, then b half a retry period later, so that b renews between a's rounds; settled on 2 + 2 of 4 shards. */
    async function twoReplicas({ shardWriteMsOfB = 0 } = {}) {
      const clock = new FakeClock();
      const store = leaseStore({ watch: true });
      const silent = new Set<string>();
      const a = coordinator(switchedClient(store, silent, 'a'), clock, gateOf(), 4, 'a');
      // b's shard Lease writes may take fake time, so that they land after its member Lease's.
      const slowShards = new Proxy(switchedClient(store, silent, 'b'), {
        get: (target, key) => {
          const f = (target as unknown as Record<string | symbol, (...a: unknown[]) => Promise<unknown>>)[key]!;
          if (key !== 'update') return f;
          return async (r: unknown, l: Lease, ...rest: unknown[]) => {
            if (l.metadata.name?.includes('-shard-')) await clock.sleep(shardWriteMsOfB);
            return f.call(target, r, l, ...rest);
          };
        },
      });
      const b = coordinator(slowShards, clock, gateOf(), 4, 'b');
      const stopA = new AbortController();
      const stopB = new AbortController();
      const runA = a.run(stopA.signal);
      await clock.advance(timings.retryPeriodMs / 2);
      const runB = b.run(stopB.signal);
      for (let i = 0; i < 6; i++) await clock.advance(timings.retryPeriodMs);
      assert.deepEqual([a.owned(), b.owned()], [assignedShards('a', ['a', 'b'], 4), assignedShards('b', ['a', 'b'], 4)]);
      // When b's Leases were last written, on the shared fake clock.
      let bWroteAt = 0;
      store.watchers.add((e) => {
        if (e.object.spec?.holderIdentity === 'b') bWroteAt = clock.monotonicMs();
      });
      const stop = async (): Promise<void> => {
        stopA.abort();
        stopB.abort();
        await clock.runAll();
        await Promise.all([runA, runB]);
      };
      return { clock, store, silent, a, b, stopB, bWroteAt: () => bWroteAt, stop };
    }

    it("takes a crashed replica's shards the instant its Leases expire, counted from the renewal the watch saw, not from a later list", async () => {
      const { clock, silent, a, b, bWroteAt, stop } = await twoReplicas();
      const bShards = b.owned();
      await clock.advance(timings.retryPeriodMs + timings.retryPeriodMs / 4);
      silent.add('b');
      const lastRenewal = bWroteAt();
      assert.ok(lastRenewal > 0 && clock.monotonicMs() - lastRenewal < timings.retryPeriodMs / 2, 'b renewed between two of a’s rounds');
      await clock.advance(lastRenewal + timings.leaseDurationMs - 1 - clock.monotonicMs());
      assert.ok(!bShards.some((s) => a.owned().includes(s)), 'b’s Leases are valid for a whole lease duration after its last renewal');
      await clock.advance(1);
      assert.deepEqual(a.owned(), [0, 1, 2, 3], 'taken at the expiry, not at a’s next round half a retry period later');
      await stop();
    });

    it("takes a crashed replica's shard Leases, renewed after its member Lease, at their own expiry", async () => {
      const { clock, silent, a, bWroteAt, stop } = await twoReplicas({ shardWriteMsOfB: 3 });
      await clock.advance(timings.retryPeriodMs + timings.retryPeriodMs / 4);
      silent.add('b');
      const lastShardRenewal = bWroteAt();
      await clock.advance(lastShardRenewal + timings.leaseDurationMs - 1 - clock.monotonicMs());
      assert.deepEqual(a.owned(), assignedShards('a', ['a', 'b'], 4), 'b’s member Lease expired 3 ms ago, its shard Leases not yet');
      await clock.advance(1);
      assert.deepEqual(a.owned(), [0, 1, 2, 3], 'taken when the shard Leases expired, not at the next round');
      await stop();
    });

    it("takes a leaving replica's shards as soon as it released them and deleted its member Lease, without waiting for a round", async () => {
      const { clock, store, a, b, stopB, stop } = await twoReplicas();
      await clock.advance(timings.retryPeriodMs / 4);
      stopB.abort();
      await clock.advance(0);
      assert.deepEqual(b.owned(), []);
      assert.equal(store.leases.has('op-member-b'), false);
      assert.deepEqual(a.owned(), [0, 1, 2, 3], 'taken in the same instant');
      await stop();
    });

    it('keeps a list answered before a renewal from taking back the renewal the watch reported', async () => {
      const { clock, store, a, stop } = await twoReplicas();
      // Every list from now on answers with the state before b's next renewal: stale, as a slow list is.
      const real = store.client.list.bind(store.client);
      let frozen: unknown;
      (store.client as unknown as { list: () => Promise<unknown> }).list = async () => (frozen ??= await real(LeaseResource));
      await clock.advance(timings.retryPeriodMs);
      assert.equal(a.holderOf(3), 'b', 'b keeps renewing on the watch while every list is stale');
      for (let i = 0; i < 3 * (timings.leaseDurationMs / timings.retryPeriodMs); i++) await clock.advance(timings.retryPeriodMs);
      assert.deepEqual(a.owned(), assignedShards('a', ['a', 'b'], 4), 'b never looked expired to a');
      await stop();
    });
  });
});
