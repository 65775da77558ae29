/**
 * What each benchmark leaves behind besides its printout: `bench/results/<name>.json`, the figures of
 * this run, the machine they were measured on, the charts to draw from them and the headline ratio
 * against its goal. `scripts/bench-charts.mjs` draws the SVGs from these files and nothing else, so
 * no number in BENCHMARKS.md's charts is typed by hand. Invariant: a file is written whole or not at
 * all (written to a temporary name, then renamed).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

/** One horizontal bar chart: bars of one unit, drawn in the order given. */
export interface Chart {
  title: string;
  unit: string;
  bars: { label: string; value: number }[];
  /** A reference line (e.g. the goal), drawn across the bars. */
  mark?: { label: string; value: number };
}

/** The headline of a benchmark: the ratio it prints last, and whether it meets its goal. */
export interface Headline {
  label: string;
  value: number;
  /** The goal, when the figure has one (a figure shown for comparison has none). */
  goal?: string;
  met?: boolean;
}

export interface BenchResult {
  name: string;
  command: string;
  figures: Record<string, number | string>;
  charts: Chart[];
  headlines: Headline[];
}

/** The 1-minute load when the benchmark started (this module is imported first thing). */
const LOAD_AT_START = Number(loadavg()[0]!.toFixed(2));

/** The machine, as far as a reader needs it to judge the numbers (load at the end of the run included). */
function machine() {
  const c = cpus();
  return {
    cpu: c[0]?.model ?? 'unknown',
    cores: c.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage1mAtStart: LOAD_AT_START,
    loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
  };
}

export function writeResult(r: BenchResult): void {
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`${r.name}.json`, dir);
  const tmp = new URL(`${r.name}.json.tmp`, dir);
  writeFileSync(tmp, JSON.stringify({ ...r, date: new Date().toISOString(), machine: machine() }, null, 2) + '\n');
  renameSync(tmp, file);
}

/** Prints the headlines, the last line of a benchmark's output being its main ratio. */
export function printHeadlines(hs: Headline[]): void {
  for (const h of hs)
    console.log(`${h.label}: ${h.value.toFixed(3)}${h.goal === undefined ? '' : ` (goal ${h.goal}: ${h.met ? 'met' : 'missed'})`}`);
}
