// Packs this checkout the way `npm publish` would, without touching the repository: a copy (no
// node_modules, dist or .git; node_modules linked back) is packed, so its prepack build writes dist/
// in the copy while other tests keep using the repository's own. Shared by every test that installs
// the package as a user gets it, together with `run`, which gives npm a clean environment.
import { execFile } from 'node:child_process';
import { cpSync, realpathSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const repo = fileURLToPath(new URL('../../../', import.meta.url));
/** What every install from the registry in these tests passes: cached packages first, no audit, no funding notice. */
export const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];

// npm run from `npm test` exports npm_* settings (the repository as local prefix among them) that
// would make npm in the app act on the repository instead, and node's test runner marks the processes
// it starts with NODE_TEST_CONTEXT, which would make an app's own `node --test` report to this run
// instead of printing its results; the app must see a clean environment.
export const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_TEST_CONTEXT'));

/** Runs `cmd` in `cwd` with the clean environment; resolves with its stdout, rejects with both outputs. */
export async function run(cmd: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(cmd, args, { cwd, env: cleanEnv, maxBuffer: 64 << 20 });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

export interface PackedFile {
  path: string;
  mode: number;
}

export interface Packed {
  /** Absolute path of the tarball, in `work`. */
  tarball: string;
  /** The copy that was packed: its dist/ is the build in the tarball, its node_modules the repository's. */
  checkout: string;
  files: PackedFile[];
  bytes: number;
}

/** Copies the repository to `work/checkout` and packs it into `work`. */
export async function packCopy(work: string): Promise<Packed> {
  const checkout = join(work, 'checkout');
  cpSync(repo, checkout, { recursive: true, filter: (p) => !['node_modules', 'dist', '.git'].includes(basename(p)) });
  symlinkSync(realpathSync(join(repo, 'node_modules')), join(checkout, 'node_modules'));
  // stdout carries the JSON report only; the prepack build's output goes to stderr.
  const [report] = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', work], checkout)) as [
    { filename: string; size: number; files: PackedFile[] },
  ];
  return { tarball: join(work, report.filename), checkout, files: report.files, bytes: report.size };
}
