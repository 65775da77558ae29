// Imports meta's internal (private) face for deepFreezeFresh, the freeze the informer applies to each decoded object.
// Where the informer's ingest time goes, stage by stage, in one process and without sockets: the
// same 100,000 MODIFIED events of 1.5 KiB ConfigMaps (with the managedFields entry the API server
// writes) are taken in 64 KiB chunks by (1) JSON.parse alone over the lines already split (the
// ceiling), (2) the floor: the least an informer can do, each line cut from its chunk, parsed and
// kept in a Map by namespace/name (no indexes, no handlers, no freeze), (3) WatchDecoder, (4)
// WatchDecoder plus the development freeze (deepFreezeFresh), and a whole SharedIndexInformer (FIFO,
// store with its namespace index, two handlers), its watch fed the same chunks, one per event-loop
// turn as a socket delivers them, (5) as in production (`freeze: false`) and (6) as in tests and
// development (`freeze: true`). Each stage runs in a process of its own, as a program runs one of
// them: in one process shared by all, the decoder's call to its event callback and the informer's
// seal saw every stage's functions, and the JIT's code for the stages measured last was slower for
// it (the production informer read 0.83 of the floor there and 0.90-0.97 alone). Each figure is CPU
// time (`process.cpuUsage`, all threads, so GC helpers count), the least of ROUNDS rounds in each of
// PASSES processes per stage, the stages' processes interleaved: on a machine shared with other work
// CPU time varies far less than wall time. Prints each stage's rate as a ratio of the ceiling and of
// the floor; the production informer's share of the floor last.
// Run: node scripts/run-bench.mjs informer-stages   (goals of the informer: >= 0.6 of the ceiling, >= 0.85 of the floor)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSharedIndexInformer, type ListerWatcher } from 'kube-converge/cache';
import { ConfigMapResource, type KubeObject } from 'kube-converge/meta';
import { deepFreezeFresh } from '../src/meta/internal.js';
import { printHeadlines, writeResult, type Headline } from './results.js';
import { seededRandom } from './watch-fixture.js';
import { replayedWatch } from './replayed-watch.js';
import { WatchDecoder } from '../src/client/watch-decoder.js';

const EVENTS = Number(process.env['UPDATES'] ?? 100_000);
const OBJECTS = 1_000;
const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const PASSES = Number(process.env['PASSES'] ?? 2);
const CHUNK = 65_536;

/** The stages, in the order they are measured and printed. */
const STAGES = [
  'JSON.parse ceiling',
  'Map floor',
  'WatchDecoder',
  'WatchDecoder + freeze',
  'informer, production',
  'informer, freeze (dev)',
] as const;
type Stage = (typeof STAGES)[number];

// Without STAGE this is the parent: it spawns a process per stage and reports, and never builds the
// events, which each stage's process builds for itself.
const only = process.env['STAGE'] as Stage | undefined;
if (only === undefined) {
  report(measureAll());
  process.exit(0);
}

const { hex } = seededRandom(11);
const uids = Array.from({ length: OBJECTS }, () => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`);
const values = Array.from({ length: OBJECTS }, () => Array.from({ length: 8 }, () => hex(24)));
/** ConfigMap `i` at `rv`, shaped as the API server returns it after a merge patch of `key_0.yaml`. */
function configMap(i: number, rv: number, revision: number): KubeObject {
  const data = Object.fromEntries(values[i]!.map((v, k) => [`key_${k}.yaml`, `setting_${k}: ${v}\nrevision: ${i}\n`]));
  data['key_0.yaml'] = `revision: ${revision}\n`;
  const fields = Object.fromEntries(Object.keys(data).map((k) => [`f:${k}`, {}]));
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      namespace: 'ingest',
      name: `cfg-${i}`,
      labels: { app: 'bench', shard: String(i % 16) },
      creationTimestamp: '2026-01-02T03:04:05Z',
      uid: uids[i]!,
      managedFields: [
        {
          manager: 'unknown',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-01-02T03:04:05Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': fields, 'f:metadata': { 'f:labels': { 'f:app': {}, 'f:shard': {} } } },
        },
      ],
      resourceVersion: String(rv),
    },
    data,
  };
}

const listBody = JSON.stringify({
  apiVersion: 'v1',
  kind: 'ConfigMapList',
  metadata: { resourceVersion: String(OBJECTS) },
  items: Array.from({ length: OBJECTS }, (_, i) => configMap(i, i + 1, 0)),
});
const lines = Array.from({ length: EVENTS }, (_, u) =>
  JSON.stringify({ type: 'MODIFIED', object: configMap(u % OBJECTS, OBJECTS + 1 + u, u) }),
);
const bytes = Buffer.from(lines.join('\n') + '\n');
const chunks: Buffer[] = [];
for (let o = 0; o < bytes.length; o += CHUNK) chunks.push(Buffer.from(bytes.subarray(o, o + CHUNK)));
const finalRv = String(OBJECTS + EVENTS);

const listerWatcher: ListerWatcher<KubeObject> = {
  description: 'configmaps in ingest',
  resource: ConfigMapResource,
  list: () => Promise.resolve(JSON.parse(listBody) as never),
  watch: () => Promise.resolve(replayedWatch(chunks)),
};

/** The floor: a minimal informer's work per event, with its own line splitting (one string per line). */
function mapFloor(): void {
  const store = new Map<string, unknown>();
  const keep = (line: string): void => {
    const { object } = JSON.parse(line) as { object: KubeObject };
    store.set(`${object.metadata.namespace}/${object.metadata.name}`, object);
  };
  let tail: Buffer | undefined;
  for (const c of chunks) {
    let s = 0;
    for (let j = c.indexOf(10); j !== -1; j = c.indexOf(10, s)) {
      keep(tail ? Buffer.concat([tail, c.subarray(0, j)]).toString('latin1') : c.toString('latin1', s, j));
      tail = undefined;
      s = j + 1;
    }
    tail = s < c.length ? (tail ? Buffer.concat([tail, c.subarray(s)]) : c.subarray(s)) : undefined;
  }
  if (store.size !== OBJECTS) throw new Error(`floor kept ${store.size} objects, want ${OBJECTS}`);
}

/** A whole informer taking every event, with `freeze` as given. */
async function wholeInformer(freeze: boolean): Promise<void> {
  const informer = createSharedIndexInformer<KubeObject>({ listerWatcher, freeze });
  let seen = 0;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  informer.addEventHandler({ onUpdate: () => void (++seen === EVENTS && done()) });
  informer.addEventHandler({ onUpdate: () => {} });
  const ac = new AbortController();
  const run = informer.run(ac.signal);
  await all;
  if (informer.lastSyncResourceVersion() !== finalRv) throw new Error(`stopped at ${informer.lastSyncResourceVersion()}, not ${finalRv}`);
  ac.abort();
  await run;
}

const stages: Record<Stage, () => unknown> = {
  'JSON.parse ceiling': () => {
    for (const l of lines) JSON.parse(l);
  },
  'Map floor': mapFloor,
  WatchDecoder: () => {
    const d = new WatchDecoder();
    for (const c of chunks) d.write(c, () => {});
  },
  'WatchDecoder + freeze': () => {
    const d = new WatchDecoder();
    for (const c of chunks) d.write(c, (ev) => deepFreezeFresh(ev.object));
  },
  'informer, production': () => wholeInformer(false),
  'informer, freeze (dev)': () => wholeInformer(true),
};
await measureOne(only);

/** In a stage's own process: its least CPU time over ROUNDS rounds after one to warm up, printed as the last line. */
async function measureOne(stage: Stage): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  let least = Infinity;
  for (let round = 0; round <= ROUNDS; round++) {
    gc();
    const t0 = process.cpuUsage();
    await stages[stage]();
    const d = process.cpuUsage(t0);
    if (round > 0) least = Math.min(least, (d.user + d.system) / 1000);
  }
  console.log(JSON.stringify({ stage, ms: least, mib: bytes.length / 2 ** 20 }));
}

/** In the parent: each stage's least CPU time over PASSES processes of its own, run interleaved; and the size of the events. */
function measureAll(): { best: Map<Stage, number>; mib: number } {
  const best = new Map<Stage, number>();
  let mib = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    for (const stage of STAGES) {
      const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
        env: { ...process.env, STAGE: stage },
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      if (r.status !== 0) throw new Error(`stage ${stage} failed: ${r.stderr}`);
      const measured = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { ms: number; mib: number };
      best.set(stage, Math.min(best.get(stage) ?? Infinity, measured.ms));
      mib = measured.mib;
    }
  }
  return { best, mib };
}

/** Prints every stage against the ceiling and the floor, writes the result file, and prints the headlines last. */
function report({ best, mib }: { best: Map<Stage, number>; mib: number }): void {
  const ceiling = best.get('JSON.parse ceiling')!;
  const floor = best.get('Map floor')!;
  console.log(`${EVENTS} events, ${mib.toFixed(1)} MiB; CPU time, least of ${ROUNDS} rounds in each of ${PASSES} processes per stage`);
  for (const [name, ms] of best) {
    console.log(
      `  ${name.padEnd(24)} ${ms.toFixed(0).padStart(6)} ms  +${(ms - ceiling).toFixed(0).padStart(4)} ms over the ceiling  ${(ceiling / ms).toFixed(2)} of its rate, ${(floor / ms).toFixed(2)} of the floor's`,
    );
  }
  const production = best.get('informer, production')!;
  const dev = best.get('informer, freeze (dev)')!;
  const headlines: Headline[] = [
    {
      label: 'production informer ingest rate / JSON.parse ceiling (CPU time)',
      value: ceiling / production,
      goal: '>= 0.6',
      met: ceiling / production >= 0.6,
    },
    { label: 'development informer (freeze) / JSON.parse ceiling (CPU time)', value: ceiling / dev },
    {
      label: 'production informer ingest rate / Map floor (CPU time)',
      value: floor / production,
      goal: '>= 0.85',
      met: floor / production >= 0.85,
    },
  ];
  writeResult({
    name: 'informer-stages',
    command: 'node scripts/run-bench.mjs informer-stages',
    figures: {
      events: EVENTS,
      rounds: ROUNDS,
      passes: PASSES,
      ...Object.fromEntries([...best].map(([name, ms]) => [`${name}: CPU ms`, Math.round(ms)])),
    },
    charts: [
      {
        title: `Ingest of ${EVENTS} ConfigMap events, stage by stage (CPU ms, lower is better)`,
        unit: 'ms',
        bars: [...best].map(([label, value]) => ({ label, value })),
        mark: { label: 'goal: ceiling / 0.6', value: ceiling / 0.6 },
      },
    ],
    headlines,
  });
  printHeadlines(headlines);
}
