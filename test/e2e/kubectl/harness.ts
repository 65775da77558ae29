/**
 * Drives the installed kubectl against an in-process server: one server per test file, a
 * kubeconfig and a private discovery cache in a temporary directory, and kubectl run with
 * `execFile` under a bounded timeout. Several kubectl versions are exercised: the oldest
 * usable and the newest of those installed beside `/usr/bin/kubectl` (`kubectl.1.27` …
 * `kubectl.1.33`), or the paths listed in `CONVERGE_KUBECTL` (colon-separated).
 *
 * Versions before 1.29 decide how to validate `apply`/`create` from the protobuf `/openapi/v2`
 * document alone (1.29 and later ask `/openapi/v3`) and fail without it, so they are picked only
 * when the server answers `/openapi/v2` (probed once, on a throwaway in-process server, when this loads).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readdirSync, realpathSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe } from 'node:test';
import { createApiServer, startApiServer } from 'kube-converge/apiserver';
import type { RunningApiServer } from 'kube-converge/apiserver';

export interface KubectlBinary {
  /** `1.27`, or the file name (`kubectl`) when it carries no version. */
  version: string;
  path: string;
}

/** The oldest kubectl that needs no `/openapi/v2`: 1.29, as major * 1000 + minor. */
const OLDEST_WITHOUT_OPENAPI_V2 = 1029;

/** Asked of an in-process server: the answer does not depend on a socket, so none is opened. */
async function servesOpenApiV2(): Promise<boolean> {
  const server = createApiServer();
  try {
    return (await server.handle({ method: 'GET', path: '/openapi/v2' })).status === 200;
  } finally {
    server.stop();
  }
}
const oldestUsable = (await servesOpenApiV2()) ? 0 : OLDEST_WITHOUT_OPENAPI_V2;

/** `CONVERGE_KUBECTL`'s binaries, when that variable lists any. */
function listedBinaries(): KubectlBinary[] | undefined {
  const listed = process.env['CONVERGE_KUBECTL'];
  if (listed === undefined || listed === '') return undefined;
  return listed.split(':').map((path) => ({ version: /kubectl\.(\d+\.\d+)$/.exec(path)?.[1] ?? basename(path), path }));
}

/** The versioned binaries installed beside `/usr/bin/kubectl`, oldest first, from `min` (major * 1000 + minor) on. */
function installedBinaries(min: number): KubectlBinary[] {
  if (!existsSync('/usr/bin/kubectl')) return [];
  const dir = dirname(realpathSync('/usr/bin/kubectl'));
  return readdirSync(dir)
    .map((name) => /^kubectl\.(\d+)\.(\d+)$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) * 1000 + Number(m[2]) >= min)
    .sort((a, b) => Number(a[1]) - Number(b[1]) || Number(a[2]) - Number(b[2]))
    .map((m) => ({ version: `${m[1]}.${m[2]}`, path: join(dir, m[0]) }));
}

/** Said when the kubectl versions a test needs are missing: where the tests look and how to point them elsewhere. */
export const KUBECTL_HINT =
  'the kubectl tests run versioned binaries (kubectl.1.27 … kubectl.1.33) installed beside /usr/bin/kubectl, as the Google Cloud SDK ' +
  "installs its kubectl component, or the paths listed in CONVERGE_KUBECTL (separated by ':')";

/** The kubectl binaries the e2e tests run with (oldest usable and newest installed). */
export function kubectlBinaries(): KubectlBinary[] {
  const listed = listedBinaries();
  if (listed !== undefined) return listed;
  if (!existsSync('/usr/bin/kubectl')) return [];
  const versioned = installedBinaries(oldestUsable);
  if (versioned.length === 0) return [{ version: 'default', path: '/usr/bin/kubectl' }];
  const oldest = versioned[0] as KubectlBinary;
  const newest = versioned[versioned.length - 1] as KubectlBinary;
  return oldest === newest ? [oldest] : [oldest, newest];
}

/**
 * `kubectlBinaries()` and every installed version from `major.minor` on (for behaviour that changed
 * in that version, such as 1.32's protobuf request bodies); only `CONVERGE_KUBECTL`'s list when set.
 */
export function kubectlBinariesWithEvery(from: { major: number; minor: number }): KubectlBinary[] {
  const listed = listedBinaries();
  if (listed !== undefined) return listed;
  const all = new Map(kubectlBinaries().map((b) => [b.path, b]));
  for (const b of installedBinaries(from.major * 1000 + from.minor)) all.set(b.path, b);
  return [...all.values()].sort((a, b) => a.version.localeCompare(b.version, 'en', { numeric: true }));
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface KubectlEnv {
  server: RunningApiServer;
  dir: string;
  /** Writes a manifest into the temporary directory and returns its path. */
  manifest(name: string, yaml: string): Promise<string>;
  /** Runs kubectl; resolves with its exit code and output (never rejects on a non-zero exit). */
  run(bin: KubectlBinary, args: readonly string[], options?: { timeoutMs?: number }): Promise<KubectlResult>;
  /** Like `run`, but throws with kubectl's output when it exits non-zero. */
  ok(bin: KubectlBinary, args: readonly string[], options?: { timeoutMs?: number }): Promise<string>;
  /** Applies a CRD (named `name`) with the first kubectl found and waits until it is Established; nothing without kubectl. */
  installCrd(name: string, yaml: string): Promise<void>;
  /** Starts a long-running kubectl (`get -w`); `lines` collects its stdout lines. */
  watch(bin: KubectlBinary, args: readonly string[]): WatchProcess;
  stop(): Promise<void>;
}

export interface WatchProcess {
  lines: string[];
  /** Resolves once a stdout line matches, rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): void;
}

const DEFAULT_TIMEOUT_MS = 20_000;

export async function startKubectlEnv(): Promise<KubectlEnv> {
  const server = await startApiServer();
  const dir = await mkdtemp(join(tmpdir(), 'converge-kubectl-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeconfig(kubeconfig);
  const env = { ...process.env, KUBECONFIG: kubeconfig, HOME: dir, KUBECTL_INTERACTIVE_DELETE: 'false' };
  const baseArgs = (bin: KubectlBinary) => [`--cache-dir=${join(dir, 'cache', bin.version)}`];

  const run = (bin: KubectlBinary, args: readonly string[], options: { timeoutMs?: number } = {}): Promise<KubectlResult> =>
    new Promise((resolve) => {
      execFile(
        bin.path,
        [...baseArgs(bin), ...args],
        { env, timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, killSignal: 'SIGKILL' },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
          resolve({ code, stdout, stderr: error !== null && error.killed ? `${stderr}\n(killed after timeout)` : stderr });
        },
      );
    });

  const manifest = async (name: string, yaml: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, yaml);
    return path;
  };
  const ok = async (bin: KubectlBinary, args: readonly string[], options?: { timeoutMs?: number }): Promise<string> => {
    const r = await run(bin, args, options);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return r.stdout;
  };

  const watches = new Set<WatchProcess>();
  return {
    server,
    dir,
    manifest,
    run,
    ok,
    async installCrd(name, yaml) {
      const bin = kubectlBinaries()[0];
      if (bin === undefined) return;
      await ok(bin, ['apply', '-f', await manifest(`${name}.yaml`, yaml)]);
      await ok(bin, ['wait', '--for=condition=Established', `crd/${name}`, '--timeout=15s']);
    },
    watch(bin, args) {
      const child = spawn(bin.path, [...baseArgs(bin), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const lines: string[] = [];
      let partial = '';
      let stderr = '';
      const waiters = new Set<() => void>();
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        const parts = (partial + chunk).split('\n');
        partial = parts.pop() ?? '';
        lines.push(...parts);
        for (const w of waiters) w();
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const proc: WatchProcess = {
        lines,
        waitFor(pattern, timeoutMs = DEFAULT_TIMEOUT_MS) {
          return new Promise((resolve, reject) => {
            const check = () => {
              const hit = lines.find((l) => pattern.test(l));
              if (hit === undefined) return;
              cleanup();
              resolve(hit);
            };
            const timer = setTimeout(() => {
              cleanup();
              reject(new Error(`no line matched ${pattern} within ${timeoutMs} ms; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`));
            }, timeoutMs);
            const cleanup = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          });
        },
        stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          watches.delete(proc);
        },
      };
      watches.add(proc);
      return proc;
    },
    async stop() {
      for (const w of [...watches]) w.stop();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One kubectl binary's share of a file's suite (see `describeWithKubectl`). */
export interface KubectlSuite {
  /** The file's env. Its server starts in the file's `before`: use it inside tests and hooks only. */
  env: KubectlEnv;
  bin: KubectlBinary;
  /** `bin.version` with dashes for dots (`1-33`): names objects so that the binaries' tests do not collide. */
  v: string;
}

/**
 * `describe(title)` over one server for the whole file (started before its tests, with `crds`
 * installed, by name, and stopped after), holding a `describe('kubectl <version>')` per binary of
 * `kubectlBinaries()` whose tests `body` declares.
 */
export function describeWithKubectl(title: string, options: { crds?: Record<string, string> }, body: (suite: KubectlSuite) => void): void {
  describe(title, () => {
    let started: KubectlEnv | undefined;
    before(async () => {
      started = await startKubectlEnv();
      for (const [name, yaml] of Object.entries(options.crds ?? {})) await started.installCrd(name, yaml);
    });
    // `before` may have failed before the server started.
    after(async () => {
      await started?.stop();
    });
    // Tests are declared before `before` runs: they are handed a stand-in that reaches the env when called.
    const env = new Proxy({} as KubectlEnv, {
      get(_, key) {
        if (started === undefined) throw new Error(`the kubectl env of '${title}' is used before its server started`);
        return Reflect.get(started, key) as unknown;
      },
    });
    for (const bin of kubectlBinaries()) {
      describe(`kubectl ${bin.version}`, () => body({ env, bin, v: bin.version.replace(/\./g, '-') }));
    }
  });
}
