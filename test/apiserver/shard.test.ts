// Imports meta's internal (private) face: machinery shared between layers that the package does not export.
// Sharded list and watch (shardSelector): lists echo shardInfo, watches drop other shards' events.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fnv1a64, namespaceShardHash } from '../../src/meta/internal.js';
import { startApi, cm, type Api } from './helpers.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const LOWER = "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')";
const UPPER = "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')";
const q = (s: string): string => encodeURIComponent(s);

/** FNV-1a 64 straight from its definition, to check the server's two-halves arithmetic against. */
function referenceFnv(s: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(s)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

async function seed(api: Api, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await api.call('POST', CMS, cm(`cm-${i}`));
}

const uids = (l: { items: { metadata: { uid: string } }[] }): string[] => l.items.map((i) => i.metadata.uid).sort();

describe('sharded list and watch (shardSelector)', () => {
  it('hashes with 64-bit FNV-1a: the published test vectors and random UIDs agree with the definition', () => {
    assert.equal(fnv1a64(''), 0xcbf29ce484222325n);
    assert.equal(fnv1a64('a'), 0xaf63dc4c8601ec8cn);
    assert.equal(fnv1a64('foobar'), 0x85944171f73967e8n);
    assert.equal(fnv1a64('héllo'), referenceFnv('héllo'), 'hashes UTF-8 bytes, not UTF-16 units');
    for (let i = 0; i < 500; i++) {
      const uid = crypto.randomUUID();
      assert.equal(fnv1a64(uid), referenceFnv(uid), uid);
    }
  });

  it('splits a list into disjoint uid shards whose union is the collection, and echoes the selector in shardInfo', async () => {
    await using api = await startApi();
    await seed(api, 40);
    const all = (await api.call('GET', CMS)).body;
    const lower = await api.call('GET', `${CMS}?shardSelector=${q(LOWER)}`);
    const upper = (await api.call('GET', `${CMS}?shardSelector=${q(UPPER)}`)).body;
    assert.equal(lower.status, 200);
    assert.deepEqual(lower.body.metadata.shardInfo, { selector: LOWER });
    assert.deepEqual(upper.metadata.shardInfo, { selector: UPPER });
    assert.equal(all.metadata.shardInfo, undefined, 'an unsharded list is the whole collection and says nothing');
    assert.ok(lower.body.items.length > 0 && upper.items.length > 0, 'forty random UIDs fall on both sides');
    for (const o of lower.body.items) assert.ok(referenceFnv(o.metadata.uid) < 0x8000000000000000n);
    for (const o of upper.items) assert.ok(referenceFnv(o.metadata.uid) >= 0x8000000000000000n);
    assert.deepEqual([...uids(lower.body), ...uids(upper)].sort(), uids(all));
  });

  it('ORs ranges joined by ||, compares bounds numerically whatever their zero padding or case, and keeps the full space whole', async () => {
    await using api = await startApi();
    await seed(api, 30);
    const all = uids((await api.call('GET', CMS)).body);
    const split =
      "shardRange(object.metadata.uid, '0x0000000000000000', '0x4000000000000000') || shardRange(object.metadata.uid, '0x4000000000000000', '0x8000000000000000')";
    assert.deepEqual(
      uids((await api.call('GET', `${CMS}?shardSelector=${q(split)}`)).body),
      uids((await api.call('GET', `${CMS}?shardSelector=${q(LOWER)}`)).body),
    );
    const padded = "shardRange(object.metadata.uid, '0x00000000000000000', '0x0000000000000000000000000000000000010000000000000000')";
    assert.deepEqual(uids((await api.call('GET', `${CMS}?shardSelector=${q(padded)}`)).body), all);
    const hexCase = (digits: string): string => `shardRange(object.metadata.uid, '0x0', '0x${digits}')`;
    assert.deepEqual(
      uids((await api.call('GET', `${CMS}?shardSelector=${q(hexCase('A000000000000000'))}`)).body),
      uids((await api.call('GET', `${CMS}?shardSelector=${q(hexCase('a000000000000000'))}`)).body),
    );
  });

  it('shards by namespace with the mixed namespace hash: every object of a namespace falls in the same shard', async () => {
    await using api = await startApi();
    const namespaces = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
    for (const ns of namespaces) {
      await api.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      for (const n of ['a', 'b']) await api.call('POST', `/api/v1/namespaces/${ns}/configmaps`, cm(n));
    }
    const sel = "shardRange(object.metadata.namespace, '0x0', '0x8000000000000000')";
    const got = (await api.call('GET', `/api/v1/configmaps?shardSelector=${q(sel)}`)).body.items as { metadata: { namespace: string } }[];
    const expected = namespaces.filter((ns) => namespaceShardHash(ns) < 0x8000000000000000n).sort();
    assert.deepEqual([...new Set(got.map((o) => o.metadata.namespace))].sort(), expected);
    assert.equal(got.length, expected.length * 2);
  });

  it('pages a sharded list without remainingItemCount, since the server cannot count the shard ahead', async () => {
    await using api = await startApi();
    await seed(api, 30);
    const whole = uids((await api.call('GET', `${CMS}?shardSelector=${q(LOWER)}`)).body);
    const seen: string[] = [];
    let cont = '';
    do {
      const page = (await api.call('GET', `${CMS}?limit=4&shardSelector=${q(LOWER)}${cont ? `&continue=${cont}` : ''}`)).body;
      assert.equal(page.metadata.remainingItemCount, undefined);
      assert.deepEqual(page.metadata.shardInfo, { selector: LOWER });
      seen.push(...uids(page));
      cont = page.metadata.continue ?? '';
    } while (cont);
    assert.deepEqual(seen.sort(), whole);
  });

  it('refuses malformed selectors with a 400 that says what is wrong', async () => {
    await using api = await startApi();
    const cases: [string, RegExp][] = [
      ["shardRange(object.metadata.uid, '0x0', '0x8') || shardRange(object.metadata.namespace, '0x8', '0x10')", /same field/],
      ["shardRange(object.metadata.name, '0x0', '0x8')", /unsupported field "object.metadata.name"/],
      ["shardRange(object.metadata.uid, '0x0', '12')", /not a 0x-prefixed hex number/],
      ["shardRange(object.metadata.uid, '0xg', '0x12')", /not a 0x-prefixed hex number/],
      ["shardRange(object.metadata.uid, '0x8', '0x8')", /empty range/],
      ["shardRange(object.metadata.uid, '0x0', '0x10000000000000001')", /beyond the hash space end/],
      ['shardRange(object.metadata.uid, 0x0, 0x8)', /is not shardRange/],
      ['uid in (a)', /is not shardRange/],
      ["shardRange(object.metadata.uid, '0x0', '0x8') ||", /is not shardRange/],
    ];
    for (const [sel, message] of cases) {
      for (const path of [`${CMS}?shardSelector=${q(sel)}`, `${CMS}?watch=true&shardSelector=${q(sel)}`]) {
        const r = await api.call('GET', path);
        assert.equal(r.status, 400, `${sel} on ${path}`);
        assert.equal(r.body.reason, 'BadRequest');
        assert.match(r.body.message, message);
      }
    }
  });

  it('watches only the shard: initial events, replayed history and live events of other shards are dropped', async () => {
    await using api = await startApi();
    await seed(api, 10);
    const start = (await api.call('GET', CMS)).body.metadata.resourceVersion as string;
    const inLower = (o: { metadata: { uid: string } }): boolean => referenceFnv(o.metadata.uid) < 0x8000000000000000n;
    const all = (await api.call('GET', CMS)).body.items as { metadata: { name: string; uid: string } }[];
    const initial = await api.watch(`${CMS}?watch=true&shardSelector=${q(LOWER)}`);
    const expectedInitial = all
      .filter(inLower)
      .map((o) => o.metadata.name)
      .sort();
    assert.deepEqual((await initial.take(expectedInitial.length)).map((e) => e.object.metadata.name).sort(), expectedInitial);

    const replay = await api.watch(`${CMS}?watch=true&resourceVersion=${start}&shardSelector=${q(LOWER)}`);
    const created: { metadata: { name: string; uid: string } }[] = [];
    for (let i = 0; i < 12; i++) created.push((await api.call('POST', CMS, cm(`new-${i}`))).body);
    for (const o of created) await api.call('PUT', `${CMS}/${o.metadata.name}`, { ...o, data: { v: '2' } });
    for (const o of created) await api.call('DELETE', `${CMS}/${o.metadata.name}`);
    const mine = created.filter(inLower).map((o) => o.metadata.name);
    assert.ok(mine.length > 0 && mine.length < created.length, 'twelve random UIDs fall on both sides');
    const expected = [...mine.map((n) => `ADDED ${n}`), ...mine.map((n) => `MODIFIED ${n}`), ...mine.map((n) => `DELETED ${n}`)];
    for (const w of [initial, replay]) {
      const evs = await w.take(expected.length);
      assert.deepEqual(
        evs.map((e) => `${e.type} ${e.object.metadata.name}`),
        expected,
      );
    }
    // A marker object proves nothing else was queued behind the expected events.
    let marker: { metadata: { name: string; uid: string } } | undefined;
    for (let i = 0; !marker; i++) {
      const o = (await api.call('POST', CMS, cm(`marker-${i}`))).body;
      if (inLower(o)) marker = o;
    }
    for (const w of [initial, replay]) assert.equal((await w.next())?.object.metadata.name, marker.metadata.name);
  });
});
