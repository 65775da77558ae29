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
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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
/** Unit test processes per core: enough to balance the groups, few enough that start-up stays small. */
const GROUPS_PER_CORE = 4;
const found = unit ? unitTestFiles() : testFiles();
const files = found.filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error(`no ${unit ? 'unit ' : ''}test files matched ${filters.join(' ') || '(all)'}`);
  process.exit(1);
}
let argv;
if (unit) {
  const guard = fileURLToPath(new URL('./unit-guard.mjs', import.meta.url));
  const outDir = join(process.cwd(), 'node_modules/.cache/converge-unit-tests');
  const compiled = await bundleTests(files, { root: process.cwd(), outDir });
  // Node 20 runs each test file in a process of its own, and starting one costs about 0.4 s of CPU
  // before a test runs: over three hundred unit files that was half the run. The compiled files are
  // run in a few groups instead, each group one process importing its files in turn (their tests run
  // one after another, as a file's own do), the groups in parallel.
  const groups = groupFiles(compiled, GROUPS_PER_CORE * availableParallelism(), join(outDir, 'groups'));
  // Two more groups than cores: unit tests spend part of their time waiting on sockets and timers
  // (one more than the cores measured 63 s on two cores, two more 55 s).
  const concurrency = `--test-concurrency=${availableParallelism() + 2}`;
  argv = ['--conditions=source', '--enable-source-maps', '--import', guard, '--test', concurrency, ...groups];
} else {
  argv = ['--conditions=source', '--import', 'tsx', '--test', '--test-concurrency=2', ...files];
}
const r = spawnSync(process.execPath, argv, { stdio: 'inherit' });
process.exit(r.status ?? 1);

/**
 * Writes `count` group modules beside the compiled files, each importing a share of them, balanced by
 * compiled size (largest first, each to the lightest group so far), and returns their paths. Test
 * names and failures still name the suites and their source files.
 */
function groupFiles(files, count, dir) {
  const bins = Array.from({ length: Math.min(count, files.length) }, () => ({ size: 0, files: [] }));
  const sized = files.map((f) => ({ f, size: statSync(f).size })).sort((a, b) => b.size - a.size);
  for (const { f, size } of sized) {
    const bin = bins.reduce((a, b) => (b.size < a.size ? b : a));
    bin.size += size;
    bin.files.push(f);
  }
  return bins.map((bin, i) => {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `group-${i + 1}.mjs`);
    writeFileSync(
      path,
      bin.files
        .sort()
        .map((f) => `import ${JSON.stringify('./' + relative(dir, f))};`)
        .join('\n') + '\n',
    );
    return path;
  });
}
