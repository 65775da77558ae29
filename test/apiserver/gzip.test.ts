// Imports the API server's private compression rule to test its edge cases directly, beside the HTTP checks.
// Response compression over the socket, as kube-apiserver does it: a body over 128 KiB, asked for
// with `Accept-Encoding: gzip`, comes gzip-compressed with `Content-Encoding: gzip`; smaller bodies,
// requests that do not ask (or ask with a parameter Go's check does not read) and watch streams do not.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import type { IncomingMessage } from 'node:http';
import { serverRequest, startApi, type Api } from './helpers.js';
import { acceptsGzip, GZIP_THRESHOLD_BYTES } from '../../src/apiserver/http/compression.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const COUNT = 150;

/** One raw GET: status, headers and the undecoded bytes. */
function rawGet(api: Api, path: string, headers: Record<string, string>): Promise<{ res: IncomingMessage; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = serverRequest(api.srv, path, { method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ res, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gzip responses', () => {
  let api: Api;
  before(async () => {
    api = await startApi();
    // Each ConfigMap carries 1 KiB of data, so the list is well over the 128 KiB threshold.
    for (let i = 0; i < COUNT; i++) {
      const r = await api.srv.handle({
        method: 'POST',
        path: CMS,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { blob: 'x'.repeat(1024) } }),
      });
      assert.equal(r.status, 201, r.body);
    }
  });
  after(async () => {
    if (api !== undefined) await api[Symbol.asyncDispose]();
  });

  it('compresses a list over 128 KiB for a client that accepts gzip', async () => {
    const { res, bytes } = await rawGet(api, CMS, { 'accept-encoding': 'gzip, deflate' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(res.headers['vary'], 'Accept-Encoding');
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(Number(res.headers['content-length']), bytes.length);
    const text = gunzipSync(bytes).toString('utf8');
    assert.ok(text.length > GZIP_THRESHOLD_BYTES);
    assert.ok(bytes.length < text.length / 10, `${bytes.length} compressed bytes for ${text.length}`);
    assert.equal(JSON.parse(text).items.length, COUNT);
  });

  it('sends the same list uncompressed to a client that does not ask, or asks with a parameter', async () => {
    const variants: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip;q=1.0' }, { 'accept-encoding': 'br, deflate' }];
    for (const headers of variants) {
      const { res, bytes } = await rawGet(api, CMS, headers);
      assert.equal(res.headers['content-encoding'], undefined, JSON.stringify(headers));
      assert.equal(JSON.parse(bytes.toString('utf8')).items.length, COUNT);
    }
  });

  it('leaves bodies of 128 KiB and less alone', async () => {
    const { res, bytes } = await rawGet(api, `${CMS}?limit=10`, { 'accept-encoding': 'gzip' });
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(bytes.toString('utf8')).items.length, 10);
  });

  it('never compresses a watch stream, however much it sends', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = serverRequest(api.srv, `${CMS}?watch=true&resourceVersion=0`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        assert.equal(res.headers['content-encoding'], undefined);
        let seen = 0;
        res.on('data', (c: Buffer) => {
          seen += c.length;
          if (seen > GZIP_THRESHOLD_BYTES) {
            req.destroy();
            resolve();
          }
        });
        res.on('error', () => undefined);
      });
      req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
      req.end();
    });
  });

  it('reads Accept-Encoding token by token, as kube-apiserver does', () => {
    assert.equal(acceptsGzip('gzip'), true);
    assert.equal(acceptsGzip('deflate, gzip'), true);
    assert.equal(acceptsGzip(' gzip ,br'), true);
    assert.equal(acceptsGzip('gzip;q=0.5'), false);
    assert.equal(acceptsGzip('x-gzip'), false);
    assert.equal(acceptsGzip(undefined), false);
  });
});
