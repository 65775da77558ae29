/**
 * The `converge` command as a real child process, run from source: `runConverge` for any command
 * (its stdout, stderr and exit code kept apart), and `startApiserverProcess` for `converge apiserver`
 * the way a user runs it for a client in another language: a kubeconfig path in a fresh temporary
 * directory, ready once it has printed its URL and written that kubeconfig, stopped with SIGTERM. The
 * kubeconfig is left as the server wrote it; clients must load it unedited.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROCESS_START_MS } from './load-bounds.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const MAIN = join(ROOT, 'src/cli/main.ts');
const READY_TIMEOUT_MS = PROCESS_START_MS;

export interface ConvergeRun {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
  /** Resolves with the URL once stdout says the server listens and the kubeconfig is written; rejects if it exits first or after a timeout. */
  listening(): Promise<string>;
}

export function runConverge(args: readonly string[]): ConvergeRun {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    out: () => out,
    err: () => err,
    listening: () =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => (done(), reject(new Error(`converge not ready after ${READY_TIMEOUT_MS} ms:\n${out}\n${err}`))),
          READY_TIMEOUT_MS,
        );
        const check = (): void => {
          const m = /listening on (https?:\/\/\S+)/.exec(out);
          if (m !== null && out.includes('kubeconfig written')) {
            done();
            resolve(m[1]!);
          }
        };
        const done = (): void => {
          clearTimeout(timer);
          child.stdout!.off('data', check);
        };
        child.stdout!.on('data', check);
        void exited.then((code) => (done(), reject(new Error(`converge exited ${String(code)} before it was ready:\n${out}\n${err}`))));
        check();
      }),
  };
}

export interface ApiserverProcess {
  url: string;
  kubeconfig: string;
  dir: string;
  /** Sends SIGTERM, waits for the exit, removes the directory; rejects when the exit was not clean. */
  stop(): Promise<void>;
}

/** Starts `converge apiserver` with `args` besides its kubeconfig path (`--kubernetes-version 1.31`, say). */
export async function startApiserverProcess(args: readonly string[] = []): Promise<ApiserverProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-e2e-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const run = runConverge(['apiserver', '--kubeconfig', kubeconfig, ...args]);
  try {
    const url = await run.listening();
    return {
      url,
      kubeconfig,
      dir,
      async stop() {
        run.child.kill('SIGTERM');
        const code = await run.exited;
        await rm(dir, { recursive: true, force: true });
        if (code !== 0) throw new Error(`converge apiserver exited ${String(code)} on SIGTERM:\n${run.out()}\n${run.err()}`);
      },
    };
  } catch (err) {
    run.child.kill('SIGKILL');
    await run.exited;
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
