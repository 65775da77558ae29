// The fault explorer against the catalogue of buggy operators (test/testing/catalogue), at full speed:
// for each bug, the time from calling the explorer to its report (API server start, the search and
// the shrinking included) and the runs it took; then the speed of the search on the small operators,
// as schedules per hour per core: the fixed twins run under their fault schedules (or spec inputs)
// with nothing to find, counted against the CPU time they used.
// Run: node scripts/run-bench.mjs testing/catalogue   (goals: median time to first failure < 10 s on a
// quiet 2-core machine; >= 100,000 schedules per hour per core). SEEDS=n changes the fixed twins' seeds.
import { performance } from 'node:perf_hooks';
import { hunt } from '../../test/testing/catalogue/hunt.js';
import { CATALOGUE } from '../../test/testing/catalogue/index.js';
import { printHeadlines, writeResult, type Headline } from '../results.js';

const SEEDS = Number(process.env['SEEDS'] ?? 200);
const TTFF_GOAL_MS = 10_000;
const RATE_GOAL = 100_000;

// Warm: the first search in the process loads and compiles the modules and the CRD.
await hunt(CATALOGUE[0]!, { fixed: true, seeds: 3, budgetMs: 60_000 });

const found: { name: string; ms: number; runs: number; seed: number }[] = [];
for (const entry of CATALOGUE) {
  const t0 = performance.now();
  const r = await hunt(entry, { fixed: false, seeds: 10_000, budgetMs: 120_000 });
  const ms = performance.now() - t0;
  if (!r.found) throw new Error(`${entry.name}: not found in ${r.runs} runs`);
  found.push({ name: entry.name, ms, runs: r.runs, seed: r.seed! });
  console.log(`${entry.name}: found in ${ms.toFixed(0)} ms after ${r.runs} runs (seed ${r.seed})`);
}

let runs = 0;
let cpuMs = 0;
for (const entry of CATALOGUE) {
  const cpu0 = process.cpuUsage();
  const r = await hunt(entry, { fixed: true, seeds: SEEDS, budgetMs: 600_000 });
  const cpu = process.cpuUsage(cpu0);
  if (r.found) throw new Error(`${entry.name}: the fixed twin failed\n${r.report}`);
  runs += r.runs;
  cpuMs += (cpu.user + cpu.system) / 1000;
}
const perHourPerCore = (runs / cpuMs) * 3_600_000;

const sorted = found.map((f) => f.ms).sort((a, b) => a - b);
const median = (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
console.log(`fixed twins: ${runs} runs in ${cpuMs.toFixed(0)} ms of CPU, ${perHourPerCore.toFixed(0)} schedules per hour per core`);

const headlines: Headline[] = [
  { label: 'median time to first failure (ms)', value: median, goal: `< ${TTFF_GOAL_MS}`, met: median < TTFF_GOAL_MS },
  {
    label: 'schedules per hour per core, small operators',
    value: perHourPerCore,
    goal: `>= ${RATE_GOAL}`,
    met: perHourPerCore >= RATE_GOAL,
  },
];
writeResult({
  name: 'catalogue',
  command: 'node scripts/run-bench.mjs testing/catalogue',
  figures: {
    medianTimeToFirstFailureMs: Math.round(median),
    schedulesPerHourPerCore: Math.round(perHourPerCore),
    fixedTwinRuns: runs,
    ...Object.fromEntries(found.map((f) => [`${f.name} (ms, runs)`, `${Math.round(f.ms)}, ${f.runs}`])),
  },
  charts: [
    {
      title: 'Fault explorer: time to first failure per catalogue bug',
      unit: 'ms',
      bars: found.map((f) => ({ label: f.name, value: Math.round(f.ms) })),
      mark: { label: 'goal (median)', value: TTFF_GOAL_MS },
    },
  ],
  headlines,
});
printHeadlines(headlines);
