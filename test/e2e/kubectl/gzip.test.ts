// kubectl lists many objects from the server with gzip, as from kube-apiserver: Go's transport asks
// for it, the server compresses the 128 KiB+ list, and kubectl decodes it transparently.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectlBinaries, startKubectlEnv, type KubectlEnv } from './harness.js';

const binaries = kubectlBinaries();
const COUNT = 150;

describe('kubectl and gzip-compressed lists', () => {
  let env: KubectlEnv;
  before(async () => {
    env = await startKubectlEnv();
    for (let i = 0; i < COUNT; i++) {
      const r = await env.server.handle({
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { blob: 'x'.repeat(1024) } }),
      });
      assert.equal(r.status, 201, r.body);
    }
  });
  after(async () => {
    if (env !== undefined) await env.stop();
  });

  it('has kubectl to run with', () => {
    assert.ok(binaries.length >= 1, 'no kubectl found');
  });

  for (const bin of binaries) {
    it(`kubectl ${bin.version} lists ${COUNT} ConfigMaps sent gzip-compressed`, async () => {
      // -v=8 prints the response headers. Go's transport asked for gzip itself, so it removes
      // Content-Encoding (and the length) once it has decompressed; the Vary the server adds only to a
      // compressed answer stays.
      const r = await env.run(bin, ['get', 'configmaps', '-n', 'default', '-o', 'name', '--chunk-size=0', '-v=8']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim().split('\n').length, COUNT);
      const request = r.stderr.indexOf('/api/v1/namespaces/default/configmaps');
      const head = r.stderr.slice(request, r.stderr.indexOf('Response Body', request));
      assert.match(head, /200 OK/);
      assert.match(head, /Vary: Accept-Encoding/);
    });
  }
});
