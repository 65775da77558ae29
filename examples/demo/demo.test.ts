// Runs `npm start`'s program in a child process on a free port: the live view shows every sample
// object reaching Ready, the printed kubeconfig and endpoints work, and Ctrl-C stops it cleanly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, loadKubeConfig } from 'kube-converge/client';
import { eventually } from 'kube-converge/testing';
import { WebApp } from '../webapp/types.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

describe('demo (npm start)', () => {
  it('shows the WebApps and the route reaching Ready, serves kubectl, metrics and health, and stops cleanly on SIGINT', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-demo-test-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main], {
      env: { ...process.env, PORT: '0', DEMO_KUBECONFIG: kubeconfig, DEMO_STEP_MS: '20' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await eventually(() => {
        const seen = `output so far:\n${out}\n${err}`;
        assert.match(out, /webapp default\/shop\s+Ready=True AllReplicasReady 3\/3/, seen);
        assert.match(out, /webapp default\/blog\s+Ready=True AllReplicasReady 2\/2/, seen);
        assert.match(out, /route\s+default\/storefront\s+Ready=True/, seen);
      }, { timeoutMs: 15_000, intervalMs: 50, message: 'the live view to show everything Ready' });
      // The route was applied first and waited for its Service, which came with the WebApp.
      assert.ok(out.indexOf('ServiceNotFound') < out.search(/route\s+default\/storefront\s+Ready=True/));
      assert.match(out, /webapp default\/shop\s+Ready=False ReplicasNotReady [0-2]\/3/, 'intermediate progress is shown');

      assert.match(out, new RegExp(`kubectl --kubeconfig ${kubeconfig.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} get webapps -w`));
      const client = createClient({ config: { ...loadKubeConfig({ path: kubeconfig }), qps: -1 } });
      try {
        assert.deepEqual((await client.list(WebApp, { namespace: 'default' })).items.map((a) => a.metadata.name).sort(), ['blog', 'shop']);
      } finally {
        client.close();
      }
      const metrics = /metrics\s+(http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(out)?.[1];
      const health = /health\s+(http:\/\/127\.0\.0\.1:\d+\/healthz)/.exec(out)?.[1];
      assert.ok(metrics && health, out);
      assert.match(await (await fetch(metrics)).text(), /controller_runtime_reconcile_total\{controller="webapp"/);
      assert.equal((await fetch(health)).status, 200);
      const why = /curl (http:\/\/\S+\/debug\/converge\/\S+)/.exec(out)?.[1];
      assert.ok(why, out);
      const report = (await (await fetch(why)).json()) as { summary: string };
      assert.match(report.summary, /^converged: /);

      child.kill('SIGINT');
      assert.equal(await exited, 0, err);
      assert.match(out, /stopped cleanly \(received SIGINT\)/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
