// The operator process (main.ts) against the local API server: it takes the Lease, reconciles, serves
// its probes and metrics, and on SIGTERM stops cleanly and releases the Lease.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DeploymentResource, LeaseResource } from 'kube-converge/meta';
import { TestEnv, eventually } from 'kube-converge/testing';
import { PROCESS_START_MS } from '../../test/e2e/load-bounds.js';
import { WebApp } from './types.js';

const crd = fileURLToPath(new URL('./crd.yaml', import.meta.url));
const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const LEASE = { namespace: 'default', name: 'webapp-operator.platform.converge.dev' };

describe('WebApp operator process (main.ts)', () => {
  it('leads through a Lease, reconciles, answers probes and metrics, and releases the Lease on SIGTERM', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main], {
      env: {
        ...process.env,
        KUBECONFIG: env.kubeconfigPath,
        POD_NAMESPACE: 'default',
        METRICS_BIND_ADDRESS: '127.0.0.1:0',
        HEALTH_PROBE_BIND_ADDRESS: '127.0.0.1:0',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const serving = await eventually(
        () => {
          const line = err.split('\n').find((l) => l.includes('"msg":"operator endpoints"'));
          assert.ok(line, `no "operator endpoints" line yet:\n${err}`);
          return JSON.parse(line) as { metrics: string; healthProbe: string };
        },
        { timeoutMs: PROCESS_START_MS, message: 'the operator to serve' },
      );

      await env.client.create(WebApp, {
        apiVersion: WebApp.apiVersion,
        kind: WebApp.kind,
        metadata: { name: 'shop', namespace: 'default' },
        spec: { image: 'shop:1', replicas: 2 },
      });
      // The Lease is free, so the operator leads at once; its first reconcile is its own work, bounded like its start-up.
      const dep = await eventually(() => env.client.get(DeploymentResource, { namespace: 'default', name: 'shop' }), {
        timeoutMs: PROCESS_START_MS,
      });
      assert.equal(dep.spec?.replicas, 2);
      const lease = await env.client.get(LeaseResource, LEASE);
      assert.ok(lease.spec?.holderIdentity, 'the operator holds the Lease');
      assert.equal((await fetch(`${serving.healthProbe}/healthz`)).status, 200);
      await eventually(async () => assert.equal((await fetch(`${serving.healthProbe}/readyz`)).status, 200), {
        timeoutMs: PROCESS_START_MS,
      });
      assert.match(
        await (await fetch(`${serving.metrics}/metrics`)).text(),
        /leader_election_master_status\{name="webapp-operator\.platform\.converge\.dev"\} 1/,
      );

      child.kill('SIGTERM');
      assert.equal(await exited, 0, err);
      assert.ok(!(await env.client.get(LeaseResource, LEASE)).spec?.holderIdentity, 'the Lease was released for a successor');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
