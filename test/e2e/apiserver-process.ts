/**
 * `converge apiserver` as a real child process, the way a user runs it for a client in another
 * language: started from source with a kubeconfig path in a fresh temporary directory, ready once it
 * has printed its URL and written that kubeconfig, stopped with SIGTERM. The kubeconfig is left as
 * the server wrote it; clients must load it unedited.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
const MAIN = join(ROOT, 'src/cli/main.ts');
const READY_TIMEOUT_MS = 20_000;

export interface ApiserverProcess {
  url: string;
  kubeconfig: string;
  dir: string;
  /** Sends SIGTERM, waits for the exit, removes the directory; rejects when the exit was not clean. */
  stop(): Promise<void>;
}

export async function startApiserverProcess(): Promise<ApiserverProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-e2e-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, 'apiserver', '--kubeconfig', kubeconfig], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const url = await ready(child, () => output, exited);
    return {
      url,
      kubeconfig,
      dir,
      async stop() {
        child.kill('SIGTERM');
        const code = await exited;
        await rm(dir, { recursive: true, force: true });
        if (code !== 0) throw new Error(`converge apiserver exited ${String(code)} on SIGTERM:\n${output}`);
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Resolves with the URL once the kubeconfig is written; rejects on an early exit or after the timeout. */
function ready(child: ChildProcess, output: () => string, exited: Promise<number | null>): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const m = /listening on (https?:\/\/\S+)/.exec(output());
      if (m !== null && output().includes('kubeconfig written')) {
        done();
        resolve(m[1]!);
      }
    };
    const timer = setTimeout(
      () => (done(), reject(new Error(`converge apiserver not ready after ${READY_TIMEOUT_MS} ms:\n${output()}`))),
      READY_TIMEOUT_MS,
    );
    const done = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
    };
    child.stdout?.on('data', check);
    void exited.then((code) => (done(), reject(new Error(`converge apiserver exited ${String(code)} before it was ready:\n${output()}`))));
  });
}
