// The real server's cap on JSON patch size: more than 10,000 operations is 413, whatever they do.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApi } from './helpers.js';

const JSON_PATCH = { 'content-type': 'application/json-patch+json' };
const testOps = (n: number) => Array.from({ length: n }, () => ({ op: 'test', path: '/metadata/name', value: 'big' }));

describe('JSON patch operation limit', () => {
  it('applies a JSON patch of exactly 10,000 operations', async () => {
    await using api = await startApi();
    assert.equal((await api.call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'big' } })).status, 201);
    const ops = [...testOps(9_999), { op: 'add', path: '/data', value: { k: 'v' } }];
    const r = await api.call('PATCH', '/api/v1/namespaces/default/configmaps/big', ops, JSON_PATCH);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { k: 'v' });
  });

  it('refuses a JSON patch of 10,001 operations with 413 RequestEntityTooLarge and leaves the object alone', async () => {
    await using api = await startApi();
    assert.equal((await api.call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'big' } })).status, 201);
    const before = (await api.call('GET', '/api/v1/namespaces/default/configmaps/big')).body;
    const ops = [...testOps(10_000), { op: 'add', path: '/data', value: { k: 'v' } }];
    const r = await api.call('PATCH', '/api/v1/namespaces/default/configmaps/big', ops, JSON_PATCH);
    assert.equal(r.status, 413);
    assert.equal(r.body.reason, 'RequestEntityTooLarge');
    assert.equal(r.body.message, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    assert.deepEqual((await api.call('GET', '/api/v1/namespaces/default/configmaps/big')).body, before);
  });

  it('applies the limit to the scale subresource too', async () => {
    await using api = await startApi();
    const dep = {
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'x' }] } },
      },
    };
    assert.equal((await api.call('POST', '/apis/apps/v1/namespaces/default/deployments', dep)).status, 201);
    const ops = Array.from({ length: 10_001 }, () => ({ op: 'replace', path: '/spec/replicas', value: 2 }));
    assert.equal((await api.call('PATCH', '/apis/apps/v1/namespaces/default/deployments/web/scale', ops, JSON_PATCH)).status, 413);
  });
});
