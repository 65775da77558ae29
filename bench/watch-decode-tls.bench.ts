// The watch-decode headline: ~10 KiB Pod watch events over TLS on one stream, decoded into an
// informer's cache, in events a second. The server (bench/watch-tls-server.ts, a child process) writes
// a recorded stream as fast as the socket takes it, so the client bounds the rate. Measured, ROUNDS
// times interleaved, medians reported (each from the informer's start: its LIST of 1,000 Pods is about
// 2 % of the bytes):
//   - Converge's SharedIndexInformer as in production (`freeze: false`) and with the development freeze;
//   - the floor: https.get on the same stream, each line cut from its chunk, parsed and kept in a Map.
// The reference is client-go's JSON decoding path at 10 KB Pod events, 1,973 events/s, as published in
// kubernetes/kubernetes#138841 (`BenchmarkPodJSONRESTClientWatch/pod_json_size=10KB`, one stream, its
// own machine); the goal is 5× that. Beside the rates, the CPU µs per event of each end (the client,
// and the server child, which reports its own; bench/watch-tls-child.ts), NODE_OPTIONS (the young
// generation's size moves the client's CPU by a third here: BENCHMARKS.md, section 4) and the 1-minute
// load; prints Converge's rate over client-go's last.
// Run: node scripts/run-bench.mjs watch-decode-tls
import { get } from 'node:https';
import { loadavg } from 'node:os';
import { createListerWatcher, createSharedIndexInformer } from 'kube-converge/cache';
import { createClient } from 'kube-converge/client';
import { PodResource, type KubeObject } from 'kube-converge/meta';
import { printHeadlines, writeResult, type Headline } from './results.js';
import { startWatchTlsServer } from './watch-tls-child.js';
import { onWatchLines } from './watch-lines.js';

const LOAD_AT_START = loadavg()[0]!.toFixed(2);
const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const CLIENT_GO_EVENTS_PER_S = 1_973;

const server = await startWatchTlsServer();
const { url, caPem, objects, events, eventBytes } = server;
const client = createClient({ config: { server: url, tls: { ca: caPem }, qps: -1 } });

/**
 * CPU µs per event of the client (this process, all threads) and of the server (the child) while `f`
 * ran, and the client's event-loop utilisation, beside its wall ms: on a shared or loaded machine the
 * wall time measures the scheduler, the CPU time much less so; the two processes' shares show which
 * end does the work, and a utilisation near 1 on a quiet machine says the client's main thread
 * bounds the rate (the collector's helper threads run beside it, so its CPU may exceed the wall time).
 */
const cpu: Record<string, { client: number[]; server: number[]; elu: number[] }> = {
  floor: { client: [], server: [], elu: [] },
  production: { client: [], server: [], elu: [] },
  dev: { client: [], server: [], elu: [] },
};
async function timed(name: string, f: () => Promise<number>): Promise<number> {
  const s0 = await server.cpuUs();
  const c0 = process.cpuUsage();
  const e0 = performance.eventLoopUtilization();
  const ms = await f();
  const elu = performance.eventLoopUtilization(e0);
  const c = process.cpuUsage(c0);
  const s1 = await server.cpuUs();
  cpu[name]!.client.push((c.user + c.system) / events);
  cpu[name]!.server.push((s1 - s0) / events);
  cpu[name]!.elu.push(elu.utilization);
  return ms;
}

async function converge(freeze: boolean): Promise<number> {
  const informer = createSharedIndexInformer<KubeObject>({ listerWatcher: createListerWatcher({ client, resource: PodResource }), freeze });
  let seen = 0;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  informer.addEventHandler({ onUpdate: () => void (++seen === events && done()) });
  const ac = new AbortController();
  const t0 = performance.now();
  const run = informer.run(ac.signal);
  await all;
  const ms = performance.now() - t0;
  if (informer.getIndexer().list().length !== objects)
    throw new Error(`cached ${informer.getIndexer().list().length} Pods, want ${objects}`);
  ac.abort();
  await run;
  return ms;
}

/** The least a client does: one TLS stream, lines cut, parsed and kept in a Map by namespace/name. */
function floor(): Promise<number> {
  const t0 = performance.now();
  const store = new Map<string, unknown>();
  let seen = 0;
  return new Promise<number>((resolve, reject) => {
    const req = get(`${url}/api/v1/pods?watch=true`, { ca: caPem }, (res) => {
      res.on(
        'data',
        onWatchLines((line) => {
          const { object } = JSON.parse(line) as { object: KubeObject };
          store.set(`${object.metadata.namespace}/${object.metadata.name}`, object);
          if (++seen !== events) return false;
          req.destroy();
          resolve(performance.now() - t0);
          return true;
        }),
      );
    });
    req.on('error', (e) => (seen < events ? reject(e) : undefined));
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rate = (ms: number): number => events / (ms / 1000);
try {
  await floor();
  await converge(false);
  const f: number[] = [];
  const prod: number[] = [];
  const dev: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    f.push(await timed('floor', floor));
    prod.push(await timed('production', () => converge(false)));
    dev.push(await timed('dev', () => converge(true)));
  }
  const floorRate = rate(median(f));
  const prodRate = rate(median(prod));
  const devRate = rate(median(dev));
  const fmt = (n: number): string => Math.round(n).toLocaleString('en');
  console.log(`${events} MODIFIED Pod events of ${eventBytes} B over TLS, one stream; median of ${ROUNDS} rounds`);
  console.log(`  floor: https.get, lines parsed into a Map   ${fmt(floorRate)} events/s`);
  console.log(`  converge informer (production)              ${fmt(prodRate)} events/s  ${(prodRate / floorRate).toFixed(2)} of the floor`);
  console.log(`  converge informer (freeze, dev)             ${fmt(devRate)} events/s  ${(devRate / floorRate).toFixed(2)} of the floor`);
  const least = (xs: number[]): string => Math.min(...xs).toFixed(1);
  const cpuOf = (name: string): string => `${name} ${least(cpu[name]!.client)} + ${least(cpu[name]!.server)}`;
  console.log(
    `  CPU µs per event, client + server (least of ${ROUNDS}; far less load-sensitive than the rates): ${cpuOf('floor')}, ${cpuOf('production')}, ${cpuOf('dev')}`,
  );
  const eluOf = (name: string): string => `${name} ${median(cpu[name]!.elu).toFixed(2)}`;
  console.log(`  client event-loop utilisation (median): ${eluOf('floor')}, ${eluOf('production')}, ${eluOf('dev')}`);
  console.log(`  client-go JSON path, published              ${fmt(CLIENT_GO_EVENTS_PER_S)} events/s`);
  const headlines: Headline[] = [
    { label: 'converge informer / Map floor (10 KiB Pods over TLS)', value: prodRate / floorRate },
    {
      label: 'converge informer events/s / client-go published JSON rate (10 KiB Pods over TLS)',
      value: prodRate / CLIENT_GO_EVENTS_PER_S,
      goal: '>= 5',
      met: prodRate / CLIENT_GO_EVENTS_PER_S >= 5,
    },
  ];
  writeResult({
    name: 'watch-decode-tls',
    command: 'node scripts/run-bench.mjs watch-decode-tls',
    figures: {
      events,
      eventBytes,
      rounds: ROUNDS,
      floorEventsPerS: Math.round(floorRate),
      convergeEventsPerS: Math.round(prodRate),
      convergeFreezeEventsPerS: Math.round(devRate),
      convergeClientCpuUsPerEvent: Number(least(cpu['production']!.client)),
      convergeServerCpuUsPerEvent: Number(least(cpu['production']!.server)),
      nodeOptions: process.env['NODE_OPTIONS'] ?? '',
    },
    charts: [
      {
        title: `${events} Pod watch events of ${eventBytes} B over TLS, decoded into the cache (events/s, higher is better)`,
        unit: 'events/s',
        bars: [
          { label: 'Map floor', value: floorRate },
          { label: 'converge', value: prodRate },
          { label: 'converge (freeze, dev)', value: devRate },
          { label: 'client-go JSON (published)', value: CLIENT_GO_EVENTS_PER_S },
        ],
        mark: { label: 'goal 5x client-go', value: 5 * CLIENT_GO_EVENTS_PER_S },
      },
    ],
    headlines,
  });
  console.log(`  NODE_OPTIONS: ${process.env['NODE_OPTIONS'] ?? '(none: the default young generation)'}`);
  console.log(`  1-minute load at start ${LOAD_AT_START}, at end ${loadavg()[0]!.toFixed(2)} (rates are meaningful below 1.5)`);
  printHeadlines(headlines);
} finally {
  client.close();
  server.stop();
}
