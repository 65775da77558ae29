// Runs test files under test/ (and examples/**/*.test.ts) with Node's built-in test runner. Node 20's
// `--test` does not glob TypeScript files itself, so this script finds them and hands the list over;
// `--conditions=source` makes `kube-converge/<layer>` resolve to src/. It runs no type-check, lint or
// format check: `npm test` runs those first.
//   node scripts/run-tests.mjs                  every test file, through tsx
//   node scripts/run-tests.mjs <substring>…     the files whose path contains one of the substrings
//   node scripts/run-tests.mjs --unit [<s>…]    only unit tests (scripts/test-kinds.mjs), compiled once
//                                              (scripts/bundle-tests.mjs) and run under a guard that
//                                              fails any of them that starts a process
//   node scripts/run-tests.mjs --files <s>…     like the second form, but at least one substring is required
// Unit tests are compiled ahead because there are many of them and tsx compiled the library again in
// each file's process; process tests and single files keep tsx, which their child processes reuse.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleTests } from './bundle-tests.mjs';
import { testFiles, unitTestFiles } from './test-kinds.mjs';

const args = process.argv.slice(2);
const unit = args.includes('--unit');
const requireFilter = args.includes('--files');
const filters = args.filter((a) => a !== '--unit' && a !== '--files');
const unknown = filters.filter((a) => a.startsWith('--'));
if (unknown.length > 0) {
  console.error(`unknown option ${unknown.join(' ')}; usage: run-tests.mjs [--unit | --files] [<path substring>…]`);
  process.exit(2);
}
if (requireFilter && filters.length === 0) {
  console.error('name at least one test file: npm run test:file -- <path substring>… (e.g. test/workqueue/rate-limiters)');
  process.exit(2);
}
const found = unit ? unitTestFiles() : testFiles();
const files = found.filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error(`no ${unit ? 'unit ' : ''}test files matched ${filters.join(' ') || '(all)'}`);
  process.exit(1);
}
let argv;
if (unit) {
  const guard = fileURLToPath(new URL('./unit-guard.mjs', import.meta.url));
  const compiled = await bundleTests(files, {
    root: process.cwd(),
    outDir: join(process.cwd(), 'node_modules/.cache/converge-unit-tests'),
  });
  // One file per core and one more: unit test files spend part of their time waiting on sockets.
  const concurrency = `--test-concurrency=${availableParallelism() + 1}`;
  argv = ['--conditions=source', '--enable-source-maps', '--import', guard, '--test', concurrency, ...compiled];
} else {
  argv = ['--conditions=source', '--import', 'tsx', '--test', '--test-concurrency=2', ...files];
}
const r = spawnSync(process.execPath, argv, { stdio: 'inherit' });
process.exit(r.status ?? 1);
