// `converge why` as a user runs it, against the demo's manager (both operators): the text a person
// reads for a converged WebApp and for one held up by a missing ConfigMap, the owner section of a
// Deployment, `-o json`, the manager found through CONVERGE_MANAGER_URL, and the refusals.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient, loadKubeConfig } from 'kube-converge/client';
import type { ConvergeReport } from 'kube-converge/manager';
import { eventually } from 'kube-converge/testing';
import { WebApp } from '../../../examples/webapp/types.js';
import { startDemo, type DemoProcess } from '../demo-process.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));

/** Runs `converge <args>` from source; resolves with its exit code and output. */
function converge(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, ...args], {
      env: { ...process.env, CONVERGE_MANAGER_URL: '', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

let demo: DemoProcess;

before(async () => {
  demo = await startDemo();
  // Every sample converged first, so the converged answers below are stable.
  await eventually(
    async () => {
      const r = await converge(['why', 'webapp/shop', '--url', demo.probeUrl, '-o', 'json']);
      assert.equal(r.code, 0, r.err);
      assert.equal((JSON.parse(r.out) as ConvergeReport).converged, true);
    },
    { timeoutMs: 20_000, intervalMs: 200, message: 'the demo shop to converge' },
  );
});

after(() => demo?.stop());

describe('converge why, against the demo', () => {
  it('prints a converged WebApp summary first, then its conditions, last reconcile, next attempt and finalizers', async () => {
    const r = await converge(['why', 'webapp/shop', '-n', 'default', '--url', demo.probeUrl]);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.split('\n');
    assert.match(
      lines[0]!,
      /^converged: WebApp default\/shop — Ready=True, observedGeneration \d+ = generation \d+, last reconcile succeeded/,
    );
    assert.match(r.out, /\nConditions:\n {2}Ready=True\n {2}\(every other condition healthy\)\n/);
    assert.match(r.out, /\nLast reconcile:\n {2}controller webapp: success [\d.]+ m?s ago\n/);
    assert.match(r.out, /\nNext attempt:\n {2}controller webapp: none scheduled\n/);
    assert.match(r.out, /\nPending finalizers:\n {2}none\n/);
  });

  it("names a Deployment's owner WebApp and the owner's reconcile", async () => {
    const r = await converge(['why', 'deployments.apps/blog', '--url', demo.probeUrl]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /\nOwner:\n {2}WebApp default\/blog, controller webapp: success [\d.]+ m?s ago; next attempt none scheduled\n/);
  });

  it('explains a WebApp held up by a missing ConfigMap, and answers the report as is with -o json (URL from CONVERGE_MANAGER_URL)', async () => {
    const client = createClient({ config: { ...loadKubeConfig({ path: demo.kubeconfig }), qps: -1 } });
    try {
      await client.create(WebApp, {
        apiVersion: WebApp.apiVersion,
        kind: WebApp.kind,
        metadata: { name: 'broken', namespace: 'default' },
        spec: { image: 'ghcr.io/acme/broken:1', replicas: 1, configRef: 'no-such-config' },
      });
    } finally {
      client.close();
    }
    const env = { CONVERGE_MANAGER_URL: demo.probeUrl };
    const text = await eventually(
      async () => {
        const r = await converge(['why', 'WebApp/broken'], env);
        assert.equal(r.code, 0, r.err);
        assert.match(r.out, /^not converged: WebApp default\/broken — /);
        assert.match(r.out, /Degraded=True ConfigMapNotFound: ConfigMap no-such-config not found/);
        return r.out;
      },
      { timeoutMs: 10_000, intervalMs: 200, message: 'the broken WebApp to be reported' },
    );
    assert.match(text, /\nConditions:\n {2}Ready=False ConfigMapNotFound: ConfigMap no-such-config not found\n/);
    const json = await converge(['why', 'webapps/broken', '-o', 'json'], env);
    assert.equal(json.code, 0, json.err);
    const report = JSON.parse(json.out) as ConvergeReport;
    assert.equal(report.converged, false);
    assert.equal(report.object.ready, 'False');
    assert.deepEqual(
      report.object.conditionsNotTrue.map((c) => c.type),
      ['Ready', 'Degraded'],
    );
  });

  it('refuses without a manager URL, with an unknown kind (naming the known ones) and without a name', async () => {
    const noUrl = await converge(['why', 'webapp/shop']);
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.err, /^converge why: no manager to ask: give --url/);
    assert.equal(noUrl.out, '');
    const unknown = await converge(['why', 'pod/x', '--url', demo.probeUrl]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /neither reconciles nor caches a kind "pod" \(it knows: .*webapps\.platform\.converge\.dev/);
    const noName = await converge(['why', 'webapp', '--url', demo.probeUrl]);
    assert.equal(noName.code, 2);
    assert.match(noName.err, /give one <kind>\/<name>/);
  });
});
