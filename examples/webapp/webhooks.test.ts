// The WebApp's webhooks end to end: the committed manifests are exactly what the code registers,
// and TestEnv installs those manifests so that client writes and `kubectl apply` are defaulted and
// validated by the webhooks running in this process.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { StatusError } from 'kube-converge/client';
import { TestEnv } from 'kube-converge/testing';
import { WebApp } from './types.js';
import { isPinnedImage, setupWebAppWebhooks, webAppWebhookManifests } from './webhooks.js';
import { WEBHOOK_MANIFEST, startWebhookEnv } from './webhook-test-env.js';

const webapp = (name: string, namespace: string, image: string) => ({
  apiVersion: WebApp.apiVersion,
  kind: 'WebApp',
  metadata: { name, namespace },
  spec: { image },
});

describe('WebApp webhooks', () => {
  it('tells a pinned image (tag or digest) from one without a tag', () => {
    for (const image of ['nginx:1.27', 'registry:5000/team/app:v2', 'app@sha256:abc']) assert.equal(isPinnedImage(image), true, image);
    for (const image of ['nginx', 'registry:5000/team/app']) assert.equal(isPinnedImage(image), false, image);
  });

  it('has committed webhook manifests that are exactly what the registered webhooks produce', async () => {
    await using env = await TestEnv.start();
    const mgr = await env.newManager();
    setupWebAppWebhooks(mgr);
    const committed = parseAllDocuments(await readFile(WEBHOOK_MANIFEST, 'utf8'))
      .map((d) => d.toJS() as { kind: string })
      .filter((d) => d.kind.endsWith('WebhookConfiguration'));
    assert.deepEqual(committed, webAppWebhookManifests(mgr, { service: { namespace: 'webapp-system', name: 'webapp-webhook-service' } }));
  });

  it('defaults replicas everywhere and refuses an untagged image in a production namespace only', async () => {
    const { env, mgr, run } = await startWebhookEnv();
    try {
      const dev = await env.client.create(WebApp, webapp('dev', 'default', 'nginx'));
      assert.equal(dev.spec.replicas, 1, 'defaulted by the webhook (the schema default is removed)');
      const prod = await env.client.create(WebApp, webapp('shop', 'shop-prod', 'nginx:1.27'));
      assert.equal(prod.spec.replicas, 1);
      await assert.rejects(env.client.create(WebApp, webapp('bad', 'shop-prod', 'nginx')), (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.code, 422);
        assert.match(err.status.message ?? '', /denied the request: image "nginx" has no tag/);
        assert.deepEqual(err.status.details?.causes, [
          { reason: 'FieldValueInvalid', field: 'spec.image', message: 'must have a tag or digest' },
        ]);
        return true;
      });
    } finally {
      await mgr.shutdown();
      await run;
      await env.stop();
    }
  });

  it(
    'is applied through kubectl: the untagged image is refused with its cause, a tagged one is created defaulted',
    { skip: !existsSync('/usr/bin/kubectl') && 'kubectl is not installed' },
    async () => {
      const { env, mgr, run } = await startWebhookEnv();
      try {
        const kubectl = (args: string[]) =>
          new Promise<{ code: number; out: string }>((resolve) =>
            execFile(
              '/usr/bin/kubectl',
              args,
              { env: { ...process.env, KUBECONFIG: env.kubeconfigPath, HOME: join(env.kubeconfigPath, '..') }, timeout: 20_000 },
              (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: stdout + stderr }),
            ),
          );
        const file = join(env.kubeconfigPath, '..', 'webapp.yaml');
        await writeFile(file, JSON.stringify(webapp('cli', 'shop-prod', 'nginx')));
        const refused = await kubectl(['apply', '-f', file]);
        assert.equal(refused.code, 1);
        // kubectl words an Invalid status from its causes, as it does the API server's own validation errors.
        assert.match(refused.out, /The WebApp "cli" is invalid: spec\.image: must have a tag or digest/);
        await writeFile(file, JSON.stringify(webapp('cli', 'shop-prod', 'nginx:1.27')));
        assert.equal((await kubectl(['apply', '-f', file])).code, 0);
        const got = await kubectl(['get', 'webapps.platform.converge.dev', 'cli', '-n', 'shop-prod', '-o', 'jsonpath={.spec.replicas}']);
        assert.equal(got.out, '1');
      } finally {
        await mgr.shutdown();
        await run;
        await env.stop();
      }
    },
  );
});
