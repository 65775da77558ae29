// Builds the published package into dist/ from src/: JavaScript, declarations, and source maps for
// both. It empties dist/ first, so a source file renamed or removed never leaves a stale module in the
// tarball, and marks the `converge` bin executable so it runs from an unpacked tarball as well.
import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

rmSync('dist', { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
chmodSync('dist/cli/main.js', 0o755);
