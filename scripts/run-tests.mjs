// Runs test files under test/ (and examples/**/*.test.ts) with Node's built-in test runner. Node 20's
// `--test` does not glob TypeScript files itself, so this script finds them and hands the list over;
// `--conditions=source` makes `kube-converge/<layer>` resolve to src/ through tsx. It runs no
// type-check, lint or format check: `npm test` runs those first.
//   node scripts/run-tests.mjs                  every test file
//   node scripts/run-tests.mjs <substring>…     the files whose path contains one of the substrings
//   node scripts/run-tests.mjs --unit [<s>…]    only unit tests (scripts/test-kinds.mjs), under a guard
//                                              that fails any of them that starts a process
//   node scripts/run-tests.mjs --files <s>…     like the second form, but at least one substring is required
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
const guard = unit ? ['--import', fileURLToPath(new URL('./unit-guard.mjs', import.meta.url))] : [];
const r = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', ...guard, '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
