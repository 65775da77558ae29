// Imports the manager's private HealthChecks: unit tests of the health endpoints' answers.
// Health checks: /healthz and /readyz answers, verbose output and per-check paths.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ping } from 'kube-converge/manager';
import { noopLogger } from 'kube-converge/meta';
import { HealthChecks } from '../../src/manager/http/index.js';

const req = (query = '', name?: string) => ({ name, query: new URLSearchParams(query), signal: new AbortController().signal });

describe('health checks', () => {
  it('answers ok when every check passes, and lists them with ?verbose', async () => {
    const h = new HealthChecks({ path: 'readyz', logger: noopLogger });
    h.add('ping', ping);
    h.add('informers', async () => {});
    assert.deepEqual(await h.handle(req()), { status: 200, body: 'ok' });
    assert.deepEqual(await h.handle(req('verbose')), { status: 200, body: '[+]informers ok\n[+]ping ok\nreadyz check passed\n' });
  });

  it('answers 500 listing the failing check without its reason', async () => {
    const h = new HealthChecks({ path: 'readyz', logger: noopLogger });
    h.add('ping', ping);
    h.add('informers', () => {
      throw new Error('secret detail');
    });
    const r = await h.handle(req());
    assert.equal(r.status, 500);
    assert.equal(r.body, '[-]informers failed: reason withheld\n[+]ping ok\nreadyz check failed\n');
  });

  it('skips excluded checks and warns about unknown exclusions', async () => {
    const h = new HealthChecks({ path: 'healthz', logger: noopLogger });
    h.add('bad', () => Promise.reject(new Error('x')));
    assert.deepEqual(await h.handle(req('exclude=bad')), { status: 200, body: 'ok' });
    const r = await h.handle(req('exclude=bad&exclude=nope&verbose'));
    assert.equal(r.body, 'warn: some health checks cannot be excluded: no matches for "nope"\nhealthz check passed\n');
  });

  it('serves one check by name, with its reason, and 404 for an unknown name', async () => {
    const h = new HealthChecks({ path: 'readyz', logger: noopLogger });
    h.add('informers', () => {
      throw new Error('ConfigMap not synced');
    });
    assert.deepEqual(await h.handle(req('', 'informers')), { status: 500, body: 'internal server error: ConfigMap not synced\n' });
    assert.equal((await h.handle(req('', 'nope'))).status, 404);
  });

  it('is healthy with no checks at all', async () => {
    const h = new HealthChecks({ path: 'healthz', logger: noopLogger });
    assert.deepEqual(await h.handle(req()), { status: 200, body: 'ok' });
  });

  it('rejects duplicate and non-URL-safe check names', () => {
    const h = new HealthChecks({ path: 'healthz', logger: noopLogger });
    h.add('ping', ping);
    assert.throws(() => h.add('ping', ping), { code: 'CONVERGE_INVALID_OPTION' });
    assert.throws(() => h.add('a/b', ping), { code: 'CONVERGE_INVALID_OPTION' });
  });
});
