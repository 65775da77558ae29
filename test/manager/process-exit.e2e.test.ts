// End-to-end: an operator process stops on SIGTERM, finishes its in-flight reconcile, starts no
// queued one, and exits by itself (nothing the manager created keeps the event loop alive).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApiServer } from 'kube-converge/apiserver';
import { createClient } from 'kube-converge/client';
import { ConfigMapResource } from 'kube-converge/meta';
import { eventually, restConfigFor } from 'kube-converge/testing';
import { PROCESS_START_MS } from '../e2e/load-bounds.js';

const fixture = fileURLToPath(new URL('./fixtures/signal-operator.ts', import.meta.url));

describe('operator process', () => {
  it('drains on SIGTERM and exits with code 0', async () => {
    await using api = await startApiServer({ port: 0 });
    const admin = createClient({ config: restConfigFor(api) });
    // The operator finds the server, its CA and the token as a deployed one would: in a kubeconfig.
    const dir = await mkdtemp(join(tmpdir(), 'converge-exit-'));
    await api.writeKubeconfig(join(dir, 'kubeconfig'));
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fixture], {
      env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      for (const n of ['p1', 'p2', 'p3']) {
        await admin.create(ConfigMapResource, { metadata: { name: n, namespace: 'default', labels: { role: 'primary' } } });
      }
      await eventually(() => out.includes('started'), { timeoutMs: PROCESS_START_MS });
      child.kill('SIGTERM');
      // Draining one 300 ms reconcile and closing is the process's own work, bounded like its start-up.
      const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), PROCESS_START_MS).unref())]);
      assert.equal(code, 0, `exit: ${String(code)}; output:\n${out}`);
      const lines = out.trim().split('\n');
      assert.equal(lines.filter((l) => l.startsWith('started')).length, 1, out);
      assert.equal(lines.filter((l) => l.startsWith('finished')).length, 1, out);
      assert.equal(lines.at(-1), 'stopped');
    } finally {
      child.kill('SIGKILL');
      admin.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
