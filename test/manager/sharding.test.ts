// Imports the manager's private sharding building blocks and option resolution: unit tests.
// Sharding building blocks: hash ranges, the namespace hash, the reconcile gate, option validation.
// The hash and lease-naming internals come from the private sharding package, to test them directly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fnv1a64, namespaceShardHash as namespaceHash } from '../../src/meta/internal.js';
import { HASH_SPACE_END, assignedShards, memberLeaseName, namespaceSharder, shardOfHash } from '../../src/manager/sharding/index.js';
import { namingSchemes } from './fixtures/naming-schemes.js';
import { ShardGate, namespaceShardSelector, shardRanges } from '../../src/manager/sharding/index.js';
import { resolveManagerOptions } from '../../src/manager/options.js';

describe('shard ranges', () => {
  it('cover [0, 2^64) contiguously and disjointly for every shard count', () => {
    for (const n of [1, 2, 3, 4, 7, 16, 1000]) {
      const ranges = shardRanges(n);
      assert.equal(ranges.length, n);
      assert.equal(ranges[0]!.start, 0n);
      assert.equal(ranges.at(-1)!.end, HASH_SPACE_END);
      for (let i = 0; i < n; i++) {
        assert.ok(ranges[i]!.start < ranges[i]!.end, `range ${i} of ${n} is empty`);
        if (i > 0) assert.equal(ranges[i]!.start, ranges[i - 1]!.end);
      }
    }
  });

  it('put every hash in the one range that contains it, including both ends of every range', () => {
    for (const n of [1, 3, 4, 16, 1000]) {
      const ranges = shardRanges(n);
      for (let i = 0; i < n; i += Math.max(1, Math.floor(n / 50))) {
        const r = ranges[i]!;
        assert.equal(shardOfHash(ranges, r.start), i);
        assert.equal(shardOfHash(ranges, r.end - 1n), i);
      }
    }
  });

  it('refuse a shard count that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => shardRanges(bad), { code: 'CONVERGE_INVALID_OPTION' });
  });

  it('spell a selector over the namespace with lower-case hex bounds, the last ending at 2^64', () => {
    const ranges = shardRanges(4);
    assert.equal(
      namespaceShardSelector([ranges[0]!, ranges[3]!]),
      "shardRange(object.metadata.namespace, '0x0', '0x4000000000000000')||shardRange(object.metadata.namespace, '0xc000000000000000', '0x10000000000000000')",
    );
    assert.throws(() => namespaceShardSelector([]), RangeError);
  });
});

/** FNV-1a 64 straight from its definition, to check the shared two-halves arithmetic against. */
function referenceFnv(s: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(s)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

describe('the namespace hash', () => {
  it('is FNV-1a 64 as the API server computes it, over UTF-8 bytes', () => {
    assert.equal(fnv1a64(''), 0xcbf29ce484222325n);
    assert.equal(fnv1a64('a'), 0xaf63dc4c8601ec8cn);
    for (const s of ['default', 'kube-system', 'team-42', 'ünïcødé', 'x'.repeat(63)]) assert.equal(fnv1a64(s), referenceFnv(s));
  });

  it('is FNV-1a 64 times 2^64/φ, the same function the API server filters namespace shards by', () => {
    for (const s of ['', 'default', 'kube-system', 'team-42', 'ünïcødé', 'x'.repeat(63)]) {
      assert.equal(namespaceHash(s), (referenceFnv(s) * 0x9e3779b97f4a7c15n) % 2n ** 64n);
      assert.notEqual(namespaceHash(s), fnv1a64(s));
    }
    assert.equal(namespaceHash(''), (0xcbf29ce484222325n * 0x9e3779b97f4a7c15n) % 2n ** 64n);
  });

  it('spreads every common naming scheme so that the busiest of 2, 3 or 4 replicas on 12 or 16 shards does at most 1.5x the mean', () => {
    const members = ['a', 'b', 'c', 'd'];
    for (const shards of [12, 16]) {
      const shardOf = namespaceSharder(shardRanges(shards));
      for (const [scheme, names] of Object.entries(namingSchemes(60))) {
        for (const r of [2, 3, 4]) {
          const live = members.slice(0, r);
          const load = live.map((m) => {
            const mine = new Set(assignedShards(m, live, shards));
            return names.filter((ns) => mine.has(shardOf(ns))).length;
          });
          assert.ok(Math.max(...load) <= 1.5 * (names.length / r), `${scheme}, ${shards} shards, ${r} replicas: ${load.join(' ')}`);
        }
      }
    }
  });

  it('left raw, FNV-1a would put each scheme of sequential suffixes in at most two of 12 shards (why the hash is mixed)', () => {
    const ranges = shardRanges(12);
    const schemes = namingSchemes(60);
    for (const scheme of ['team-1..', 'p-00..', 'tenant-000..']) {
      const names = schemes[scheme]!;
      assert.ok(new Set(names.map((ns) => shardOfHash(ranges, fnv1a64(ns)))).size <= 2, scheme);
    }
  });

  it('maps a namespace to the shard whose range holds its hash', () => {
    const ranges = shardRanges(16);
    const shardOf = namespaceSharder(ranges);
    for (const ns of ['default', 'a', 'b', 'team-1', 'team-2']) {
      const h = namespaceHash(ns);
      const r = ranges[shardOf(ns)]!;
      assert.ok(h >= r.start && h < r.end);
    }
  });
});

describe('the shard assignment', () => {
  it('gives every member floor(s/r) or ceil(s/r) shards, partitions them, and is the same whatever order members are listed in', () => {
    for (const shards of [1, 4, 12, 16]) {
      for (let r = 1; r <= 6; r++) {
        const members = Array.from({ length: r }, (_, i) => `replica-${i}`);
        const blocks = members.map((m) => assignedShards(m, [...members].reverse(), shards));
        for (const b of blocks) assert.ok(b.length === Math.floor(shards / r) || b.length === Math.ceil(shards / r), `${shards}/${r}`);
        assert.deepEqual(
          blocks.flat(),
          Array.from({ length: shards }, (_, i) => i),
        );
      }
    }
    assert.deepEqual(assignedShards('a', ['b', 'c', 'a', 'd', 'e'], 12), [0, 1, 2]);
    assert.deepEqual(assignedShards('e', ['b', 'c', 'a', 'd', 'e'], 12), [10, 11]);
    assert.deepEqual(assignedShards('z', ['a'], 4), [], 'a replica not among the members holds nothing');
  });
});

describe('the shard gate', () => {
  const gate = (): ShardGate => new ShardGate({ shardOf: (req) => (req.namespace ? Number(req.namespace.slice(-1)) : undefined) });

  it('drops requests of closed shards and always admits cluster-scoped ones', () => {
    const g = gate();
    assert.equal(g.admit({ namespace: 'ns0', name: 'x' }), undefined);
    assert.notEqual(g.admit({ name: 'cluster-wide' }), undefined);
    g.open(0);
    assert.notEqual(g.admit({ namespace: 'ns0', name: 'x' }), undefined);
    assert.equal(g.admit({ namespace: 'ns1', name: 'x' }), undefined);
  });

  it('closes a shard at once but resolves the close only when its in-flight reconciles settled', async () => {
    const g = gate();
    g.open(1);
    const first = g.admit({ namespace: 'ns1', name: 'a' })!;
    const second = g.admit({ namespace: 'ns1', name: 'b' })!;
    let closed = false;
    const closing = g.close(1).then(() => (closed = true));
    assert.equal(g.admit({ namespace: 'ns1', name: 'c' }), undefined);
    first.done();
    first.done(); // settling twice counts once
    await Promise.resolve();
    assert.equal(closed, false);
    second.done();
    await closing;
    assert.equal(closed, true);
    await g.close(1); // nothing in flight: resolves at once
  });

  it('aborts the signal of the reconciles in flight of a shard that is lost, not of one released, and gives a reopened shard a fresh signal', async () => {
    const g = gate();
    g.open(1);
    g.open(2);
    const lostOne = g.admit({ namespace: 'ns1', name: 'a' })!;
    const released = g.admit({ namespace: 'ns2', name: 'b' })!;
    const unsharded = g.admit({ name: 'cluster-wide' })!;
    assert.equal(g.signalOf('ns1'), lostOne.signal, 'writes in the namespace carry the same signal');
    const losing = g.lose(1);
    const releasing = g.close(2);
    assert.equal(lostOne.signal?.aborted, true);
    assert.match(String(lostOne.signal?.reason), /shard 1 was lost/);
    assert.equal(released.signal?.aborted, false, 'a release drains instead');
    assert.equal(unsharded.signal, undefined);
    assert.equal(g.signalOf('ns1'), undefined, 'no signal for a shard not held');
    lostOne.done();
    released.done();
    await Promise.all([losing, releasing]);
    g.open(1);
    const again = g.admit({ namespace: 'ns1', name: 'a' })!;
    assert.equal(again.signal?.aborted, false);
    again.done();
  });
});

describe('sharding options', () => {
  it("default the timings to leader election's and require an id, a namespace and a positive shard count", () => {
    const o = resolveManagerOptions({ sharding: { shards: 16, id: 'op', namespace: 'ns', identity: 'me' } });
    assert.deepEqual(
      { ...o.sharding },
      {
        shards: 16,
        id: 'op',
        namespace: 'ns',
        identity: 'me',
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
        by: 'namespace',
      },
    );
    assert.equal(resolveManagerOptions({ sharding: { shards: 4, id: 'op', namespace: 'ns', by: 'cluster' } }).sharding?.by, 'cluster');
    assert.throws(() => resolveManagerOptions({ sharding: { shards: 4, id: 'op', namespace: 'ns', by: 'name' as 'cluster' } }), {
      code: 'CONVERGE_INVALID_OPTION',
    });
    assert.throws(() => resolveManagerOptions({ sharding: { shards: 0, id: 'op', namespace: 'ns' } }), { code: 'CONVERGE_INVALID_OPTION' });
    assert.throws(() => resolveManagerOptions({ sharding: { shards: 4, id: '', namespace: 'ns' } }), { code: 'CONVERGE_INVALID_OPTION' });
    assert.throws(() => resolveManagerOptions({ sharding: { shards: 4, id: 'op' } }), { code: 'CONVERGE_INVALID_OPTION' });
    assert.throws(
      () => resolveManagerOptions({ sharding: { shards: 4, id: 'op', namespace: 'ns', leaseDurationMs: 1_000, renewDeadlineMs: 1_000 } }),
      { code: 'CONVERGE_INVALID_OPTION' },
    );
  });

  it('turn an identity into a valid Lease name', () => {
    assert.equal(memberLeaseName('op', 'Host_1234-abcd'), 'op-member-host-1234-abcd');
  });
});
