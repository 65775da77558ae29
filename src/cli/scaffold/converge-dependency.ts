/**
 * Where a scaffolded project gets kube-converge from (`converge init --kube-converge <spec>`): the
 * registry, at the version of the running CLI or at a version given; or a copy vendored into the
 * project, from a tarball or from a checkout packed with `npm pack`. A vendored copy lives in
 * vendor/ and package.json names it `file:vendor/<tarball>`, inside the project, so `npm ci` finds
 * it on any machine and in the Docker build context (the Dockerfile copies vendor/).
 *
 * Invariant: everything is read (and a checkout packed) before the project is written, so a bad
 * spec or a failed pack leaves no half-written project behind.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ScaffoldUsageError } from './names.js';
import type { ScaffoldFile } from './write-files.js';

export interface ConvergeDependency {
  /** package.json's `kube-converge` entry. */
  spec: string;
  /** The vendored tarball, when there is one. */
  vendored?: ScaffoldFile;
}

/** A version (`0.2.0`), a range (`^0.2.0`, `>=0.1 <1`) or a dist-tag (`latest`, `next`). */
const REGISTRY_SPEC = /^([\^~]?\d+(\.\d+){0,2}([-+][0-9A-Za-z.-]+)?|[<>=][<>=0-9.x* |-]*|[a-z][a-z0-9-]*)$/;

/** Resolves `given` (undefined: the running CLI's own version, from the registry). */
export async function convergeDependency(given: string | undefined, ownVersion: string, cwd: string): Promise<ConvergeDependency> {
  if (given === undefined) return { spec: `^${ownVersion}` };
  const path = resolve(cwd, given);
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) return vendor(await packCheckout(path));
    if (path.endsWith('.tgz')) return vendor({ name: basename(path), content: await readFile(path) });
    throw new ScaffoldUsageError(`--kube-converge ${given}: a file must be a .tgz made by npm pack`);
  }
  if (REGISTRY_SPEC.test(given)) return { spec: given };
  throw new ScaffoldUsageError(
    `--kube-converge ${JSON.stringify(given)} is neither a file or folder (none at ${path}) nor a version such as 0.1.0 or ^0.1.0`,
  );
}

function vendor(tarball: { name: string; content: Uint8Array }): ConvergeDependency {
  const path = `vendor/${tarball.name}`;
  return { spec: `file:${path}`, vendored: { path, content: tarball.content } };
}

/** Packs the kube-converge checkout at `dir` (its prepack builds it) into a temporary folder. */
async function packCheckout(dir: string): Promise<{ name: string; content: Uint8Array }> {
  let name: unknown;
  try {
    name = (JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
  } catch (err) {
    throw new ScaffoldUsageError(`--kube-converge ${dir}: a folder must be a kube-converge checkout (${(err as Error).message})`);
  }
  if (name !== 'kube-converge')
    throw new ScaffoldUsageError(`--kube-converge ${dir}: that folder holds ${String(name)}, not kube-converge`);
  const out = await mkdtemp(join(tmpdir(), 'converge-pack-'));
  try {
    const { stdout } = await promisify(execFile)('npm', ['pack', '--json', '--pack-destination', out], {
      cwd: dir,
      env: packEnv(),
      maxBuffer: 64 << 20,
    });
    const [report] = JSON.parse(stdout) as [{ filename: string }];
    return { name: report.filename, content: await readFile(join(out, report.filename)) };
  } catch (err) {
    if (err instanceof ScaffoldUsageError) throw err;
    const e = err as { stderr?: string; message: string };
    throw new Error(`npm pack in ${dir} failed: ${e.message}${e.stderr ? `\n${e.stderr}` : ''}`, { cause: err });
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/**
 * The environment for npm pack: without the settings an enclosing npm run or npx exports (its package,
 * its lifecycle, its prefix), which would make npm act on that project instead of the checkout; the
 * user's own npm configuration (registry, cache) stays.
 */
const packEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_(?!config_)/i.test(k) && !/^npm_config_(local_)?prefix$/i.test(k)));
