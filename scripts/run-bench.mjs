// Runs each benchmark under bench/ (files named *.bench.ts), one process each, in sequence.
// Each benchmark prints its ratio last. Pass substrings to run a subset: `npm run bench -- workqueue`.
import { spawnSync } from 'node:child_process';
import { filesUnder } from './files-under.mjs';

const found = filesUnder('bench', (name) => name.endsWith('.bench.ts'));
const filters = process.argv.slice(2);
let failed = 0;
for (const f of found.filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))) {
  console.log(`\n=== ${f}`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--conditions=source', '--import', 'tsx', f], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
