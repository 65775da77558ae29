// Runs `npm start`'s program in a child process on a free port: the live view shows every sample
// object reaching Ready, the dashboard URL comes first and its state shows both operators, the
// printed kubeconfig and endpoints work, Ctrl-C stops it cleanly and
// removes the kubeconfig, two demos side by side keep their own kubeconfig, and a bad `PORT` is one
// line of error.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient, loadKubeConfig } from 'kube-converge/client';
import { eventually } from 'kube-converge/testing';
import { PROCESS_START_MS } from '../../test/e2e/load-bounds.js';
import { WebApp } from '../webapp/types.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

interface Demo {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

function startDemo(env: Record<string, string>): Demo {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main], { env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

/** The kubeconfig path the demo prints, once it has printed it. */
async function printedKubeconfig(demo: Demo): Promise<string> {
  return eventually(
    () => {
      const path = /^ {2}export KUBECONFIG=(\S+)$/m.exec(demo.out())?.[1];
      if (path === undefined) throw new Error(`no kubeconfig line yet; output so far:\n${demo.out()}\n${demo.err()}`);
      return path;
    },
    { timeoutMs: PROCESS_START_MS, intervalMs: 50, message: 'the demo to print its kubeconfig' },
  );
}

describe('demo (npm start)', () => {
  it('shows the WebApps and the route reaching Ready, serves kubectl, metrics and health, and stops cleanly on SIGINT', async () => {
    const demo = startDemo({ PORT: '0', DEMO_STEP_MS: '20' });
    try {
      const kubeconfig = await printedKubeconfig(demo);
      await eventually(
        () => {
          const seen = `output so far:\n${demo.out()}\n${demo.err()}`;
          assert.match(demo.out(), /webapp default\/shop\s+Ready=True AllReplicasReady 3\/3/, seen);
          assert.match(demo.out(), /webapp default\/blog\s+Ready=True AllReplicasReady 2\/2/, seen);
          assert.match(demo.out(), /route\s+default\/storefront\s+Ready=True/, seen);
        },
        { timeoutMs: PROCESS_START_MS, intervalMs: 50, message: 'the live view to show everything Ready' },
      );
      const out = demo.out();
      // The route was applied first and waited for its Service, which came with the WebApp.
      assert.ok(out.indexOf('ServiceNotFound') < out.search(/route\s+default\/storefront\s+Ready=True/));
      assert.match(out, /webapp default\/shop\s+Ready=False ReplicasNotReady [0-2]\/3/, 'intermediate progress is shown');

      assert.match(out, /^ {2}kubectl get webapps -w$/m, 'kubectl lines rely on the exported KUBECONFIG');
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
      const dashboard = /^Converge demo: dashboard (http:\/\/127\.0\.0\.1:\d+\/dashboard) /.exec(out)?.[1];
      assert.ok(dashboard, `the first line names the dashboard:\n${out}`);
      assert.match(await (await fetch(dashboard)).text(), /<title>Converge dashboard<\/title>/);
      const state = (await (await fetch(`${dashboard}/state`)).json()) as { controllers: { name: string }[] };
      assert.deepEqual(state.controllers.map((c) => c.name).sort(), ['applicationroute', 'deployment-simulator', 'webapp']);
      const why = /curl (http:\/\/\S+\/debug\/converge\/\S+)/.exec(out)?.[1];
      assert.ok(why, out);
      const report = (await (await fetch(why)).json()) as { summary: string };
      assert.match(report.summary, /^converged: /);

      demo.child.kill('SIGINT');
      assert.equal(await demo.exited, 0, demo.err());
      assert.match(demo.out(), /stopped cleanly \(received SIGINT\)/);
      assert.equal(existsSync(kubeconfig), false, `${kubeconfig} is removed on exit`);
    } finally {
      if (demo.child.exitCode === null) demo.child.kill('SIGKILL');
    }
  });

  it('gives a second demo its own kubeconfig, so stopping one leaves the other usable', async () => {
    const first = startDemo({ PORT: '0' });
    const second = startDemo({ PORT: '0' });
    try {
      const [a, b] = await Promise.all([printedKubeconfig(first), printedKubeconfig(second)]);
      assert.notEqual(a, b);
      first.child.kill('SIGINT');
      assert.equal(await first.exited, 0, first.err());
      assert.equal(existsSync(a), false);
      const client = createClient({ config: { ...loadKubeConfig({ path: b }), qps: -1 } });
      try {
        await client.list(WebApp, { namespace: 'default' });
      } finally {
        client.close();
      }
      second.child.kill('SIGINT');
      assert.equal(await second.exited, 0, second.err());
      assert.equal(existsSync(b), false);
    } finally {
      for (const d of [first, second]) if (d.child.exitCode === null) d.child.kill('SIGKILL');
    }
  });

  for (const port of ['http', '65536']) {
    it(`refuses PORT=${port} with one line on stderr and exit code 2`, async () => {
      const demo = startDemo({ PORT: port });
      assert.equal(await demo.exited, 2, demo.err());
      assert.equal(demo.err(), `demo: PORT must be a whole number from 0 to 65535, got "${port}"\n`);
      assert.equal(demo.out(), '');
    });
  }
});
