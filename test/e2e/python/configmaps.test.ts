// The Python `kubernetes` client against `converge apiserver` run as a process, with the kubeconfig it wrote: HTTPS
// with its CA and token, ConfigMap CRUD, a 404 as ApiException, and Watch().stream from a resourceVersion.
// configmaps.py does the client calls and prints what it saw; these tests assert on that. Without the client
// installed the tests skip, except in CI, where they fail: .ci/run installs it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApiserverProcess, type ApiserverProcess } from '../apiserver-process.js';
import { INSTALL_HINT, python, runScenario as run, skip } from './python-client.js';

const SCRIPT = new URL('configmaps.py', import.meta.url).pathname;
const runScenario = (server: ApiserverProcess, namespace: string, scenario: string): Promise<any> =>
  run(SCRIPT, server, namespace, scenario);

describe('the Python kubernetes client against converge apiserver', { skip }, () => {
  let server: ApiserverProcess;
  before(async () => {
    assert.ok(python !== undefined, `CI=true and no python3 with the kubernetes client: ${INSTALL_HINT}`);
    server = await startApiserverProcess();
  });
  // `before` may have failed before the server started.
  after(async () => {
    if (server !== undefined) await server.stop();
  });

  it('loads the kubeconfig as written: HTTPS verified against its CA, with its bearer token', async () => {
    const r = await runScenario(server, 'py-connection', 'connection');
    assert.equal(r.host, server.url);
    assert.match(r.host, /^https:/);
    assert.equal(r.verifySsl, true);
    assert.equal(r.hasCaFile, true, 'certificate-authority-data becomes the CA file');
    assert.equal(r.authorization, 'Bearer');
    assert.ok(r.namespaces.includes('py-connection'));
  });

  it('creates, reads, lists, replaces, patches and deletes a ConfigMap', async () => {
    const r = await runScenario(server, 'py-crud', 'crud');
    assert.equal(r.created.name, 'app');
    assert.equal(r.created.namespace, 'py-crud');
    assert.deepEqual(r.created.data, { a: '1' });
    assert.deepEqual(r.read, { uid: r.created.uid, data: { a: '1' } });
    assert.deepEqual(r.listed.names, ['app']);
    assert.ok(Number(r.listed.resourceVersion) >= Number(r.created.resourceVersion), 'the list is at least as new as the create');
    assert.deepEqual(r.replaced.data, { a: '2' });
    assert.ok(Number(r.replaced.resourceVersion) > Number(r.created.resourceVersion));
    assert.deepEqual(r.merged, { a: '2', b: '3' }, 'a dict body is a strategic merge patch');
    assert.deepEqual(r.jsonPatched, { b: '3' }, 'a list body is a JSON patch');
    assert.equal(r.deleted, 'Success');
    assert.equal(r.readAfterDelete, 404);
  });

  it('raises ApiException with status 404 and a NotFound Status for a missing ConfigMap', async () => {
    assert.deepEqual(await runScenario(server, 'py-missing', 'not-found'), {
      exception: 'ApiException',
      status: 404,
      reason: 'NotFound',
      kind: 'Status',
    });
  });

  it('streams ADDED, MODIFIED and DELETED with Watch().stream from a resourceVersion', async () => {
    const r = await runScenario(server, 'py-watch', 'watch');
    assert.deepEqual(
      r.events.map((e: { type: string; name: string; data: unknown }) => [e.type, e.name, e.data]),
      [
        ['ADDED', 'watched', { step: 'added' }],
        ['MODIFIED', 'watched', { step: 'modified' }],
        ['DELETED', 'watched', { step: 'modified' }],
      ],
    );
    const rvs = r.events.map((e: { resourceVersion: string }) => Number(e.resourceVersion));
    assert.ok(rvs[0] > Number(r.from) && rvs[0] < rvs[1] && rvs[1] < rvs[2], `increasing after ${r.from}: ${rvs.join(', ')}`);
  });
});
