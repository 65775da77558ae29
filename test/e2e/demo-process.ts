/**
 * The demo (`npm start`) as a child process on free ports, for end-to-end tests that need both
 * operators running in one manager: ready once it has printed its dashboard URL and kubeconfig;
 * stopped with SIGINT, and killed if it does not exit.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eventually } from 'kube-converge/testing';
import { PROCESS_START_MS } from './load-bounds.js';

const MAIN = fileURLToPath(new URL('../../examples/demo/main.ts', import.meta.url));

export interface DemoProcess {
  child: ChildProcessWithoutNullStreams;
  /** The manager's health-probe base URL, e.g. `http://127.0.0.1:40321`. */
  probeUrl: string;
  dashboardUrl: string;
  kubeconfig: string;
  out: () => string;
  stop(): Promise<void>;
}

export async function startDemo(): Promise<DemoProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN], {
    env: { ...process.env, PORT: '0', DEMO_STEP_MS: '20' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    child.kill('SIGINT');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };
  try {
    const { dashboardUrl, kubeconfig } = await eventually(
      () => {
        const dashboard = /dashboard (http:\/\/\S+\/dashboard)/.exec(out)?.[1];
        const config = /^ {2}export KUBECONFIG=(\S+)$/m.exec(out)?.[1];
        if (!dashboard || !config) throw new Error(`the demo has not printed its URLs yet:\n${out}\n${err}`);
        return { dashboardUrl: dashboard, kubeconfig: config };
      },
      { timeoutMs: PROCESS_START_MS, intervalMs: 50, message: 'the demo to print its dashboard URL and kubeconfig' },
    );
    return { child, probeUrl: new URL(dashboardUrl).origin, dashboardUrl, kubeconfig, out: () => out, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
