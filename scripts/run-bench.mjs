// Runs each benchmark under bench/ (files named *.bench.ts), one process each, in sequence, then draws
// the charts from the JSON the benchmarks wrote (scripts/bench-charts.mjs). Each benchmark prints its
// ratio last. Pass substrings to run a subset: `npm run bench -- workqueue`.
import { spawnSync } from 'node:child_process';
import { filesUnder } from './files-under.mjs';
import { drawAll } from './bench-charts.mjs';

const found = filesUnder('bench', (name) => name.endsWith('.bench.ts'));
const filters = process.argv.slice(2);
let failed = 0;
for (const f of found.filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))) {
  console.log(`\n=== ${f}`);
  // The realistic-object benchmarks keep several copies of 50,000 objects alive at once.
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=6144', '--conditions=source', '--import', 'tsx', f], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed++;
}
for (const f of drawAll()) console.log(`wrote ${f}`);
process.exit(failed ? 1 : 0);
