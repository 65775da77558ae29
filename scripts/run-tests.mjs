// Runs every test file under test/ (and examples/**/*.test.ts) with Node's built-in test runner.
// Node 20's `--test` does not glob TypeScript files itself, so this script finds them and hands
// the list over; `--conditions=source` makes `kube-converge/<layer>` resolve to src/ through tsx.
// Pass paths or substrings as arguments to run a subset: `npm test -- workqueue`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { filesUnder } from './files-under.mjs';

const found = ['test', 'examples']
  .filter((d) => existsSync(d))
  .flatMap((d) => filesUnder(d, (name) => name.endsWith('.test.ts')))
  .sort();
const filters = process.argv.slice(2);
const files = found.filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error(`no test files matched ${filters.join(' ') || '(all)'}`);
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
