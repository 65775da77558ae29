// The loopback TLS material's disk cache: reused only when it is ours, private and sound; a miss otherwise.
// It unit-tests the cache's own functions (no server exposes them), hence the import of the private file.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startApiServer } from '../../src/apiserver/index.js';
import { materialCacheDir, readCachedMaterial, writeCachedMaterial } from '../../src/apiserver/http/tls/material-cache.js';

const root = mkdtempSync(join(tmpdir(), 'converge-tls-cache-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => join(root, `c${n++}`);

describe('loopback TLS material cache', () => {
  it('hands a later process the material an earlier server made, and serves with it', async () => {
    await using srv = await startApiServer();
    const cached = readCachedMaterial(materialCacheDir());
    assert.ok(cached, 'the first loopback server stored its material');
    assert.equal(cached.caPem, srv.caCertificate);
    const r = await fetch(`${srv.url}/healthz`).catch((e: unknown) => e);
    assert.ok(r instanceof Error, 'the CA is private: an unconfigured client does not trust it');
  });

  it('round-trips sound material through a private folder', async () => {
    await using srv = await startApiServer();
    const m = readCachedMaterial(materialCacheDir())!;
    const dir = freshDir();
    assert.equal(writeCachedMaterial(m, dir), true);
    assert.deepEqual(readCachedMaterial(dir), m);
    assert.equal(srv.caCertificate, m.caPem);
  });

  it('misses when the file can be read by others, is corrupt, or pairs a certificate with another key', async () => {
    await using srv = await startApiServer();
    const m = readCachedMaterial(materialCacheDir())!;
    assert.ok(srv.url);
    const dir = freshDir();
    writeCachedMaterial(m, dir);
    const file = join(dir, 'loopback-tls-v1.json');
    chmodSync(file, 0o644);
    assert.equal(readCachedMaterial(dir), undefined, 'a file others can read is not trusted');
    chmodSync(file, 0o600);
    writeFileSync(file, '{"caPem":');
    assert.equal(readCachedMaterial(dir), undefined, 'a torn file is a miss, not an error');
    writeFileSync(file, JSON.stringify({ ...m, cert: m.caPem }));
    assert.equal(readCachedMaterial(dir), undefined, 'a certificate that does not match its key is a miss');
    writeCachedMaterial(m, dir);
    chmodSync(dir, 0o755);
    assert.equal(readCachedMaterial(dir), undefined, 'a folder others can read is not trusted');
  });

  it('misses when the certificate expires within a day, so it is remade in time', async () => {
    await using srv = await startApiServer();
    const m = readCachedMaterial(materialCacheDir())!;
    assert.ok(srv.url);
    const dir = freshDir();
    writeCachedMaterial(m, dir);
    assert.ok(readCachedMaterial(dir, Date.now()));
    assert.equal(readCachedMaterial(dir, Date.now() + 365 * 86_400_000), undefined);
  });

  it('never stores a private key of the CA', async () => {
    await using srv = await startApiServer();
    assert.ok(srv.url);
    const text = readFileSync(join(materialCacheDir(), 'loopback-tls-v1.json'), 'utf8');
    assert.equal((text.match(/PRIVATE KEY/g) ?? []).length, 2, 'one key (BEGIN and END lines): the serving key');
  });
});
