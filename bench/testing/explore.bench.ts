// The fault explorer's speed: schedules per minute for the WebApp operator, both in its compact form
// (the explorer's self-test operator, test/testing/fixtures/webapp-variants.ts) and as examples/webapp
// with its Deployment simulator, each under seeded schedules of every fault kind, on one in-process API
// server and a shared fake clock. The baseline, measured in the same run, is the compact operator's run
// without faults (the same scenario, nothing injected). Also reported: CPU time per schedule, which the
// load other processes put on the machine inflates less than the wall time.
// Run: node scripts/run-bench.mjs explore   (goal: >= 1,000 schedules per minute on 2 cores).
// SCHEDULES=n changes the count of schedules with faults. Prints faulty schedule / run without faults last.
import { performance } from 'node:perf_hooks';
import { explore, type ExploreOptions, type ExploreSetup } from 'kube-converge/testing';
import type { ObjectOf } from 'kube-converge/meta';
import { exampleConverged, exampleWebAppSetup, webAppCrd } from '../../test/testing/fixtures/explore-webapp-example.js';
import { ExternalRecords, WebApp, converged, invariants, scenario, webAppVariant } from '../../test/testing/fixtures/webapp-variants.js';
import { printHeadlines, writeResult, type Headline } from '../results.js';

const SCHEDULES = Number(process.env['SCHEDULES'] ?? 300);
const GOAL = 1000;

interface Measured {
  schedules: number;
  perMinute: number;
  msPerSchedule: number;
  cpuMsPerSchedule: number;
}

type App = ObjectOf<typeof WebApp>;

async function measure(
  setup: (external: ExternalRecords) => ExploreSetup,
  options: Pick<ExploreOptions<App>, 'seeds' | 'replay' | 'converged'>,
): Promise<Measured> {
  const external = new ExternalRecords();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await explore(setup(external), {
    ...options,
    budgetMs: 600_000,
    crds: [webAppCrd],
    resource: WebApp,
    scenario,
    invariants: invariants(external),
  });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (r.failure) throw new Error(r.failure.report);
  return {
    schedules: r.schedules,
    perMinute: (r.schedules / ms) * 60_000,
    msPerSchedule: ms / r.schedules,
    cpuMsPerSchedule: (cpu.user + cpu.system) / 1000 / r.schedules,
  };
}

const compactSetup = (external: ExternalRecords) => webAppVariant(external);

// Warm: the first explore in the process loads and compiles the modules, the CRD and the X.509 library.
await measure(compactSetup, { seeds: 20, converged });
const baseline = await measure(compactSetup, { seeds: Math.max(20, SCHEDULES / 3), replay: [], converged });
const compact = await measure(compactSetup, { seeds: SCHEDULES, converged });
const example = await measure(exampleWebAppSetup, { seeds: Math.max(20, SCHEDULES / 2), converged: exampleConverged });

const line = (label: string, m: Measured): string =>
  `${label}: ${m.schedules} schedules, ${m.perMinute.toFixed(0)} per minute, ${m.msPerSchedule.toFixed(1)} ms each (${m.cpuMsPerSchedule.toFixed(1)} ms CPU)`;
console.log(line('compact WebApp operator, no faults (baseline)', baseline));
console.log(line('compact WebApp operator, every fault kind', compact));
console.log(line('examples/webapp with its Deployment simulator, every fault kind', example));

const ratio = compact.msPerSchedule / baseline.msPerSchedule;
const headlines: Headline[] = [
  { label: 'schedules per minute, compact WebApp operator', value: compact.perMinute, goal: `>= ${GOAL}`, met: compact.perMinute >= GOAL },
  { label: 'schedules per minute, examples/webapp', value: example.perMinute, goal: `>= ${GOAL}`, met: example.perMinute >= GOAL },
  { label: 'schedule with faults / run without faults (time, compact operator)', value: ratio, goal: '<= 2', met: ratio <= 2 },
];
writeResult({
  name: 'explore',
  command: 'node scripts/run-bench.mjs explore',
  figures: {
    baselinePerMinute: Math.round(baseline.perMinute),
    compactPerMinute: Math.round(compact.perMinute),
    examplePerMinute: Math.round(example.perMinute),
    baselineCpuMs: Number(baseline.cpuMsPerSchedule.toFixed(1)),
    compactCpuMs: Number(compact.cpuMsPerSchedule.toFixed(1)),
    exampleCpuMs: Number(example.cpuMsPerSchedule.toFixed(1)),
    schedules: SCHEDULES,
  },
  charts: [
    {
      title: 'Fault explorer: schedules per minute (one process)',
      unit: 'schedules/min',
      bars: [
        { label: 'compact operator, no faults', value: Math.round(baseline.perMinute) },
        { label: 'compact operator, all faults', value: Math.round(compact.perMinute) },
        { label: 'examples/webapp, all faults', value: Math.round(example.perMinute) },
      ],
      mark: { label: 'goal', value: GOAL },
    },
  ],
  headlines,
});
printHeadlines(headlines);
