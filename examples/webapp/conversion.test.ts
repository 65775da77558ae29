// The WebApp's two versions end to end: v1alpha1 (replicas named `instances`) and v1 (stored)
// convert both ways without loss, the CRD's committed spec.conversion is what the webhook server
// serves and passes a server-side dry run, and a v1alpha1 WebApp applied with kubectl is converted,
// defaulted and validated by the example's own webhooks running in this process beside TestEnv.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from 'kube-converge/meta';
import { TestEnv, loadCrds } from 'kube-converge/testing';
import { isLossless, roundTrip } from 'kube-converge/webhook';
import { kubectlBinaries } from '../../test/e2e/kubectl/harness.js';
import { webAppConversion, webAppConversionBlock } from './conversion.js';
import { WebApp, WebAppV1alpha1 } from './types.js';
import { startWebhookEnv } from './webhook-test-env.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const CRD = here('./crd.yaml');
const kubectl = kubectlBinaries()[0];

const alpha = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: WebAppV1alpha1.apiVersion,
  kind: 'WebApp',
  metadata: { name: 'shop', namespace: 'default', labels: { team: 'web' } },
  spec,
});

describe('WebApp versions', () => {
  it('converts v1alpha1 to v1 by renaming instances to replicas, and round-trips v1alpha1 → v1 → v1alpha1 losing nothing', () => {
    const old = alpha({ image: 'nginx:1.27', instances: 3, port: 80, configRef: 'cfg' });
    const hub = webAppConversion.spokes.get('v1alpha1')!.toHub(structuredClone(old));
    assert.deepEqual(hub.spec, { image: 'nginx:1.27', replicas: 3, port: 80, configRef: 'cfg' });
    assert.deepEqual(roundTrip(webAppConversion, old), old);
    assert.equal(isLossless(webAppConversion, alpha({ image: 'nginx:1.27' })), true, 'an absent count stays absent');
    const v1: KubeObject = { ...old, apiVersion: WebApp.apiVersion, spec: { image: 'a:1', replicas: 2 } };
    assert.deepEqual(roundTrip(webAppConversion, v1, 'v1alpha1'), v1);
  });

  it("has the CRD's spec.conversion the webhook server serves, pointed at the webhook Service", async () => {
    const [crd] = await loadCrds([CRD]);
    assert.deepEqual(
      crd!.spec.conversion,
      webAppConversionBlock({ service: { namespace: 'webapp-system', name: 'webapp-webhook-service' } }),
    );
    assert.deepEqual(
      crd!.spec.versions.map((v) => [v.name, v.served, v.storage]),
      [
        ['v1', true, true],
        ['v1alpha1', true, false],
      ],
    );
  });

  it(
    'is applied with kubectl in v1alpha1: converted, defaulted and validated by its own webhooks, and read back in either version',
    { skip: kubectl === undefined && 'kubectl is not installed' },
    async () => {
      {
        // The committed CRD, conversion block included, is accepted by a server as it stands.
        await using fresh = await TestEnv.start();
        const dry = await kubectlIn(kubectl!.path, fresh.kubeconfigPath, join(fresh.kubeconfigPath, '..'), [
          'apply',
          '--dry-run=server',
          '-f',
          CRD,
        ]);
        assert.equal(dry.code, 0, dry.out);
        assert.match(dry.out, /created \(server dry run\)/);
      }
      const { env, mgr, run } = await startWebhookEnv();
      try {
        const home = join(env.kubeconfigPath, '..');
        const k = (args: string[]) => kubectlIn(kubectl!.path, env.kubeconfigPath, home, args);
        const file = join(home, 'webapp-v1alpha1.yaml');
        const manifest = (image: string) =>
          JSON.stringify({ ...alpha({ image, port: 80 }), metadata: { name: 'cli', namespace: 'shop-prod', labels: { team: 'web' } } });
        await writeFile(file, manifest('nginx'));
        const refused = await k(['apply', '-f', file]);
        assert.equal(refused.code, 1);
        assert.match(refused.out, /The WebApp "cli" is invalid: spec\.image: must have a tag or digest/);
        await writeFile(file, manifest('nginx:1.27'));
        const applied = await k(['apply', '-f', file]);
        assert.equal(applied.code, 0, applied.out);
        const stored = await env.client.get(WebApp, { namespace: 'shop-prod', name: 'cli' });
        assert.deepEqual(stored.spec, { image: 'nginx:1.27', replicas: 1, port: 80 }, 'stored in v1, defaulted by the webhook');
        const back = await k(['get', 'webapps.v1alpha1.platform.converge.dev', 'cli', '-n', 'shop-prod', '-o', 'json']);
        assert.equal(back.code, 0, back.out);
        const old = JSON.parse(back.out) as KubeObject;
        assert.equal(old.apiVersion, WebAppV1alpha1.apiVersion);
        assert.deepEqual(old.spec, { image: 'nginx:1.27', instances: 1, port: 80 });
        assert.deepEqual(old.metadata.labels, { team: 'web' });
        const again = await k(['apply', '-f', file]);
        assert.match(again.out, /webapp\.platform\.converge\.dev\/cli unchanged/, 'the round trip loses nothing kubectl applied');
      } finally {
        await mgr.shutdown();
        await run;
        await env.stop();
      }
    },
  );
});

function kubectlIn(bin: string, kubeconfig: string, home: string, args: string[]): Promise<{ code: number; out: string }> {
  return import('node:child_process').then(
    ({ execFile }) =>
      new Promise((resolve) =>
        execFile(bin, args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: home }, timeout: 20_000 }, (err, stdout, stderr) =>
          resolve({ code: err ? 1 : 0, out: stdout + stderr }),
        ),
      ),
  );
}
