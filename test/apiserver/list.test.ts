// Lists: pagination over one snapshot, resourceVersion and resourceVersionMatch semantics, label and field selectors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, cm } from './helpers.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const names = (l: { items: { metadata: { name: string } }[] }): string[] => l.items.map((i) => i.metadata.name);

describe('list: pagination, resourceVersion semantics and selectors', () => {
  it('pages with limit/continue from one snapshot: same list RV on every page, remainingItemCount, later writes invisible', async () => {
    await using api = await startApi();
    for (const n of ['a', 'b', 'c', 'd', 'e']) await api.call('POST', CMS, cm(n));
    const p1 = (await api.call('GET', `${CMS}?limit=2`)).body;
    assert.deepEqual(names(p1), ['a', 'b']);
    assert.equal(p1.metadata.remainingItemCount, 3);
    assert.ok(p1.metadata.continue);
    await api.call('POST', CMS, cm('bb'));
    await api.call('DELETE', `${CMS}/d`);
    const p2 = (await api.call('GET', `${CMS}?limit=2&continue=${p1.metadata.continue}`)).body;
    assert.deepEqual(names(p2), ['c', 'd']);
    assert.equal(p2.metadata.resourceVersion, p1.metadata.resourceVersion);
    const p3 = (await api.call('GET', `${CMS}?limit=2&continue=${p2.metadata.continue}`)).body;
    assert.deepEqual(names(p3), ['e']);
    assert.equal(p3.metadata.continue, undefined);
    assert.equal(p3.metadata.remainingItemCount, undefined);
  });

  it('answers an expired continue token with 410 Expired and a fresh inconsistent token', async () => {
    await using api = await startApi();
    for (const n of ['a', 'b', 'c']) await api.call('POST', CMS, cm(n));
    const p1 = (await api.call('GET', `${CMS}?limit=1`)).body;
    await api.call('POST', CMS, cm('z'));
    api.srv.compact();
    const r = await api.call('GET', `${CMS}?limit=1&continue=${p1.metadata.continue}`);
    assert.equal(r.status, 410);
    assert.equal(r.body.reason, 'Expired');
    assert.match(r.body.message, /^The provided continue parameter is too old to display a consistent list result\./);
    assert.ok(r.body.metadata.continue);
  });

  it('answers a malformed continue token with 400', async () => {
    await using api = await startApi();
    const r = await api.call('GET', `${CMS}?limit=1&continue=garbage`);
    assert.equal(r.status, 400);
    assert.match(r.body.message, /^invalid continue token/);
  });

  it('omits remainingItemCount when a selector is used, and may return fewer items than the limit', async () => {
    await using api = await startApi();
    for (const n of ['a', 'b', 'c', 'd']) await api.call('POST', CMS, cm(n, {}, { labels: { keep: n === 'd' ? 'yes' : 'no' } }));
    const r = (await api.call('GET', `${CMS}?limit=2&labelSelector=keep%3Dyes`)).body;
    assert.deepEqual(names(r), ['d']);
    assert.equal(r.metadata.remainingItemCount, undefined);
  });

  it('serves resourceVersionMatch=Exact from the snapshot at that revision, 410 once compacted', async () => {
    await using api = await startApi();
    const a = (await api.call('POST', CMS, cm('a'))).body;
    await api.call('POST', CMS, cm('b'));
    await api.call('DELETE', `${CMS}/a`);
    const r = (await api.call('GET', `${CMS}?resourceVersion=${a.metadata.resourceVersion}&resourceVersionMatch=Exact`)).body;
    assert.deepEqual(names(r), ['a']);
    assert.equal(r.metadata.resourceVersion, a.metadata.resourceVersion);
    api.srv.compact();
    const gone = await api.call('GET', `${CMS}?resourceVersion=${a.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    assert.equal(gone.status, 410);
    assert.equal(gone.body.reason, 'Expired');
  });

  it('serves NotOlderThan from the latest state, and 504 for a revision the server has not reached', async () => {
    await using api = await startApi();
    const a = (await api.call('POST', CMS, cm('a'))).body;
    await api.call('POST', CMS, cm('b'));
    const r = (await api.call('GET', `${CMS}?resourceVersion=${a.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`)).body;
    assert.deepEqual(names(r), ['a', 'b']);
    const future = await api.call('GET', `${CMS}?resourceVersion=99999&resourceVersionMatch=NotOlderThan`);
    assert.equal(future.status, 504);
    assert.equal(future.body.reason, 'Timeout');
    assert.equal(future.body.details.causes[0].reason, 'ResourceVersionTooLarge');
  });

  it('ignores limit for resourceVersion=0', async () => {
    await using api = await startApi();
    for (const n of ['a', 'b', 'c']) await api.call('POST', CMS, cm(n));
    const r = (await api.call('GET', `${CMS}?resourceVersion=0&limit=1`)).body;
    assert.deepEqual(names(r), ['a', 'b', 'c']);
    assert.equal(r.metadata.continue, undefined);
  });

  it('validates list options with 422 Invalid of kind ListOptions', async () => {
    await using api = await startApi();
    for (const q of [
      'resourceVersionMatch=Exact',
      'resourceVersion=0&resourceVersionMatch=Exact',
      'resourceVersion=1&resourceVersionMatch=Bogus',
    ]) {
      const r = await api.call('GET', `${CMS}?${q}`);
      assert.equal(r.status, 422, q);
      assert.equal(r.body.details.kind, 'ListOptions');
      assert.equal(r.body.details.group, 'meta.k8s.io');
    }
  });

  it('matches label selectors with =, !=, in, notin, exists and !key', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a', {}, { labels: { env: 'prod', tier: 'web' } }));
    await api.call('POST', CMS, cm('b', {}, { labels: { env: 'dev' } }));
    await api.call('POST', CMS, cm('c'));
    const q = async (sel: string): Promise<string[]> =>
      names((await api.call('GET', `${CMS}?labelSelector=${encodeURIComponent(sel)}`)).body);
    assert.deepEqual(await q('env=prod'), ['a']);
    assert.deepEqual(await q('env!=prod'), ['b', 'c']);
    assert.deepEqual(await q('env in (prod,dev)'), ['a', 'b']);
    assert.deepEqual(await q('env notin (prod)'), ['b', 'c']);
    assert.deepEqual(await q('tier'), ['a']);
    assert.deepEqual(await q('!env'), ['c']);
    assert.deepEqual(await q('env=prod,tier=web'), ['a']);
    const bad = await api.call('GET', `${CMS}?labelSelector=${encodeURIComponent('a b c')}`);
    assert.equal(bad.status, 400);
  });

  it("answers a bad selector with a 400 in apimachinery's words, and matches field names exactly as written", async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a'));
    const message = async (query: string): Promise<[number, string]> => {
      const r = await api.call('GET', `${CMS}?${query}`);
      return [r.status, r.body.message];
    };
    assert.deepEqual(await message(`labelSelector=${encodeURIComponent('env in (a')}`), [
      400,
      "unable to parse requirement: found '', expected: ',' or ')'",
    ]);
    assert.deepEqual(await message(`labelSelector=${encodeURIComponent('env=-x')}`), [
      400,
      'unable to parse requirement: values[0][env]: Invalid value: "-x": a valid label must be an empty string or consist of alphanumeric ' +
        "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', " +
        "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
    assert.deepEqual(await message('fieldSelector=metadata.name'), [
      400,
      "invalid selector: 'metadata.name'; can't understand 'metadata.name'",
    ]);
    assert.deepEqual(await message(`fieldSelector=${encodeURIComponent('metadata.name=a\\x')}`), [
      400,
      'invalid field selector: invalid escape sequence: \\x',
    ]);
    assert.deepEqual(await message(`fieldSelector=${encodeURIComponent(' metadata.name=a')}`), [
      400,
      'field label not supported:  metadata.name',
    ]);
    assert.deepEqual(names((await api.call('GET', `${CMS}?fieldSelector=${encodeURIComponent('metadata.name=a')}`)).body), ['a']);
  });

  it('reports each problem with a label as its own cause, as the real server does', async () => {
    await using api = await startApi();
    const r = await api.call('POST', CMS, cm('a', {}, { labels: { ['k'.repeat(64)]: 'v' } }));
    assert.equal(r.status, 422);
    assert.deepEqual(
      r.body.details.causes.map((c: { message: string }) => c.message),
      ['Invalid value: "' + 'k'.repeat(64) + '": name part must be no more than 63 characters'],
    );
    const both = await api.call('POST', CMS, cm('b', {}, { labels: { ['-'.repeat(64)]: 'v' } }));
    assert.equal(both.body.details.causes.length, 2);
  });

  it('deletes a collection by selector and returns the deleted items', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a', {}, { labels: { x: '1' } }));
    await api.call('POST', CMS, cm('b', {}, { labels: { x: '1' } }));
    await api.call('POST', CMS, cm('c'));
    const r = await api.call('DELETE', `${CMS}?labelSelector=x%3D1`);
    assert.equal(r.status, 200);
    assert.equal(r.body.kind, 'ConfigMapList');
    assert.deepEqual(names(r.body), ['a', 'b']);
    assert.deepEqual(names((await api.call('GET', CMS)).body), ['c']);
  });

  it('returns PartialObjectMetadataList when asked', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a', { secret: 'data' }));
    const r = await api.call('GET', CMS, undefined, {
      accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
    });
    assert.equal(r.body.kind, 'PartialObjectMetadataList');
    assert.equal(r.body.items[0].kind, 'PartialObjectMetadata');
    assert.equal(r.body.items[0].metadata.name, 'a');
    assert.equal(r.body.items[0].data, undefined);
  });
});

describe('Event field selectors', () => {
  it('select on the object an Event is about, under involvedObject.* in core/v1 and regarding.* in events.k8s.io/v1', async () => {
    await using api = await startApi();
    for (const [name, about] of [
      ['e1', 'a'],
      ['e2', 'b'],
    ] as const) {
      const r = await api.call('POST', '/api/v1/namespaces/default/events', {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name },
        involvedObject: { kind: 'Pod', name: about, namespace: 'default' },
        reason: 'Started',
      });
      assert.equal(r.status, 201, r.text);
    }
    const core = await api.call('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Da,involvedObject.kind%3DPod');
    assert.deepEqual(
      core.body.items.map((e: { metadata: { name: string } }) => e.metadata.name),
      ['e1'],
    );
    const v1 = await api.call('GET', '/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=regarding.name%3Db');
    assert.deepEqual(
      v1.body.items.map((e: { metadata: { name: string } }) => e.metadata.name),
      ['e2'],
    );
    assert.equal(v1.body.items[0].regarding.name, 'b');
    const unknown = await api.call('GET', '/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Db');
    assert.equal(unknown.status, 400);
  });
});
