// Imports the webhook layer's private paths, which the server must serve.
// The webhook server as a manager runs it: HTTPS with the certificate from files, readiness behind
// the manager's /readyz, a rotated certificate served without a restart (a broken rotation is not),
// and a missing certificate failing the manager's start.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { servingMaterial } from '../../src/apiserver/internal.js';
import { TestEnv, eventually } from 'kube-converge/testing';
import { deny, webhookManagedBy, webhookServerFor, type AdmissionReview } from 'kube-converge/webhook';
import { AppV1, app, certDir, recordingLogger, review } from './helpers.js';
import { mutatePath, validatePath } from '../../src/webhook/paths.js';

/** POSTs JSON over HTTPS trusting `ca`; resolves with the status, the body and the serving certificate's fingerprint. */
function post(url: string, body: unknown, ca: string | string[]): Promise<{ status: number; body: string; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', ca, headers: { 'content-type': 'application/json' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          fingerprint: res.socket ? (res.socket as import('node:tls').TLSSocket).getPeerCertificate().fingerprint256 : '',
        }),
      );
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function readyz(base: string): Promise<string> {
  const res = await fetch(`${base}/readyz?verbose`);
  return res.text();
}

describe('webhook server', () => {
  it('serves the builder’s webhooks over HTTPS once the manager starts, and reports ready on /readyz', async (t) => {
    const certs = await certDir();
    t.after(() => certs.remove());
    const material = await servingMaterial('127.0.0.1');
    await certs.write(material);
    await using env = await TestEnv.start();
    const mgr = await env.newManager({ healthProbeBindAddress: '127.0.0.1:0' });
    const server = webhookServerFor(mgr, { host: '127.0.0.1', port: 0, certDir: certs.dir });
    webhookManagedBy(mgr)
      .for(AppV1)
      .defaulter((obj) => {
        obj.spec.replicas ??= 1;
      })
      .validator({ create: (obj) => (obj.spec.image.includes(':') ? undefined : deny('spec.image needs a tag')) })
      .complete();
    const run = mgr.start();
    const url = await server.listening();
    const { healthProbe } = await mgr.listening();
    await eventually(async () => assert.match(await readyz(healthProbe!), /\[\+\]webhook ok/));

    const mutated = await post(`${url}${mutatePath(AppV1)}`, review('CREATE', { object: app({ image: 'nginx' }) }), material.caPem);
    assert.equal(mutated.status, 200);
    assert.equal((JSON.parse(mutated.body) as AdmissionReview).response!.patchType, 'JSONPatch');
    const denied = await post(`${url}${validatePath(AppV1)}`, review('CREATE', { object: app({ image: 'nginx' }) }), material.caPem);
    assert.equal((JSON.parse(denied.body) as AdmissionReview).response!.allowed, false);

    await mgr.shutdown();
    await run;
  });

  it('serves a rotated certificate without a restart, and keeps the old one when the new pair is broken', async (t) => {
    const certs = await certDir();
    t.after(() => certs.remove());
    const first = await servingMaterial('127.0.0.1');
    const second = await servingMaterial('rotated.webhook.test');
    await certs.write(first);
    const logger = recordingLogger();
    await using env = await TestEnv.start();
    const mgr = await env.newManager();
    const server = webhookServerFor(mgr, { host: '127.0.0.1', port: 0, certDir: certs.dir, logger });
    webhookManagedBy(mgr)
      .for(AppV1)
      .validator({ create: () => undefined })
      .complete();
    const run = mgr.start();
    const url = `${await server.listening()}${validatePath(AppV1)}`;
    const body = review('CREATE', { object: app({ image: 'a:1' }) });
    // The loopback pair may come from an earlier process's CA; trust both.
    const ca = [first.caPem, second.caPem];
    const before = (await post(url, body, ca)).fingerprint;

    await certs.write(second);
    await eventually(async () => assert.notEqual((await post(url, body, ca)).fingerprint, before));
    const rotated = (await post(url, body, ca)).fingerprint;

    // A certificate whose key does not match: logged, and the served pair stays.
    await certs.write({ cert: first.cert, key: second.key });
    await eventually(() =>
      assert.ok(logger.lines.some((l) => l.msg === 'serving certificate not reloaded; the previous one is still served')),
    );
    assert.equal((await post(url, body, ca)).fingerprint, rotated);

    await mgr.shutdown();
    await run;
  });

  it('fails the manager’s start with the file error when the certificate is missing', async (t) => {
    const certs = await certDir();
    t.after(() => certs.remove());
    await using env = await TestEnv.start();
    const mgr = await env.newManager();
    const server = webhookServerFor(mgr, { host: '127.0.0.1', port: 0, certDir: certs.dir });
    webhookManagedBy(mgr)
      .for(AppV1)
      .validator({ create: () => undefined })
      .complete();
    await assert.rejects(mgr.start(), { code: 'ENOENT' });
    await assert.rejects(server.listening(), { code: 'ENOENT' });
  });

  it('gives a manager one webhook server and refuses options for it twice, or after start', async () => {
    await using env = await TestEnv.start();
    const mgr = await env.newManager();
    const server = webhookServerFor(mgr, { port: 0 });
    assert.equal(webhookServerFor(mgr), server);
    assert.throws(() => webhookServerFor(mgr, { port: 1 }), { code: 'CONVERGE_INVALID_OPTION' });
    assert.throws(() => webhookManagedBy(mgr).complete(), /the kind is required/);
    assert.throws(() => webhookManagedBy(mgr).for(AppV1).complete(), /nothing to serve/);
  });
});
