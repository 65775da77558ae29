// Imports the client's private WatchDecoder: the stages below it are measured on their own.
// Where the client's time goes on the watch-decode-tls stream (bench/watch-tls-server.ts: 50,000
// MODIFIED events of 10 KiB Pods on one TLS stream), stage by stage, each stage one more step of the
// informer's work on the same bytes: (1) TLS and HTTP only, https.get reading the body and dropping it;
// (2) plus WatchDecoder, every event parsed and dropped; (3) plus a Map by namespace/name keeping the
// 1,000 latest Pods, as a cache does (objects now live for 1,000 events, past the young generation:
// this stage adds what the garbage collector pays for them); (4) Converge's SharedIndexInformer as in
// production (`freeze: false`; its LIST of 1,000 Pods, 2 % of the bytes, included). Each figure is the
// CPU µs per event of the client (`process.cpuUsage`, all threads, so GC helpers count) and of the
// server child, the least of ROUNDS interleaved rounds: CPU time varies far less with load than wall
// time. The young generation's size is V8's default unless NODE_OPTIONS says otherwise (printed).
// Prints the informer's client CPU per event over stage (3)'s last.
// Run: node scripts/run-bench.mjs watch-tls-stages
import { get } from 'node:https';
import { createListerWatcher, createSharedIndexInformer } from 'kube-converge/cache';
import { createClient, type WatchEvent } from 'kube-converge/client';
import { PodResource, type KubeObject } from 'kube-converge/meta';
import { WatchDecoder } from '../src/client/watch-decoder.js';
import { printHeadlines, writeResult, type Headline } from './results.js';
import { startWatchTlsServer } from './watch-tls-child.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 5);

const server = await startWatchTlsServer();
const { url, caPem, objects, events, eventBytes, streamBytes } = server;
const client = createClient({ config: { server: url, tls: { ca: caPem }, qps: -1 } });

/** Reads one watch stream with https.get; `onChunk` returns true once it has seen all it needs. */
function readStream(onChunk: (c: Buffer) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    const req = get(`${url}/api/v1/pods?watch=true`, { ca: caPem }, (res) => {
      res.on('data', (c: Buffer) => {
        if (done || !onChunk(c)) return;
        done = true;
        req.destroy();
        resolve();
      });
    });
    req.on('error', (e) => (done ? undefined : reject(e)));
  });
}

function tlsOnly(): Promise<void> {
  let bytes = 0;
  return readStream((c) => (bytes += c.length) >= streamBytes);
}

function decoded(keep: boolean): Promise<void> {
  const decoder = new WatchDecoder();
  const store = new Map<string, KubeObject>();
  let seen = 0;
  // Every event of this stream is a MODIFIED Pod.
  const onEvent = keep
    ? (ev: WatchEvent): void => {
        const object = ev.object as KubeObject;
        store.set(`${object.metadata.namespace}/${object.metadata.name}`, object);
        seen++;
      }
    : (): void => void seen++;
  return readStream((c) => {
    decoder.write(c, onEvent);
    return seen === events;
  });
}

async function informer(): Promise<void> {
  const inf = createSharedIndexInformer<KubeObject>({
    listerWatcher: createListerWatcher({ client, resource: PodResource }),
    freeze: false,
  });
  let seen = 0;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  inf.addEventHandler({ onUpdate: () => void (++seen === events && done()) });
  const ac = new AbortController();
  const run = inf.run(ac.signal);
  await all;
  if (inf.getIndexer().list().length !== objects) throw new Error(`cached ${inf.getIndexer().list().length} Pods, want ${objects}`);
  ac.abort();
  await run;
}

const stages: { name: string; run: () => Promise<void>; client: number[]; server: number[] }[] = [
  { name: 'TLS + HTTP, body dropped', run: tlsOnly, client: [], server: [] },
  { name: '+ WatchDecoder, events dropped', run: () => decoded(false), client: [], server: [] },
  { name: '+ kept in a Map (1,000 Pods)', run: () => decoded(true), client: [], server: [] },
  { name: 'SharedIndexInformer, production', run: informer, client: [], server: [] },
];
try {
  for (const s of stages) await s.run();
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of stages) {
      const s0 = await server.cpuUs();
      const c0 = process.cpuUsage();
      await s.run();
      const c = process.cpuUsage(c0);
      const s1 = await server.cpuUs();
      s.client.push((c.user + c.system) / events);
      s.server.push((s1 - s0) / events);
    }
  }
  const least = (xs: number[]): number => Math.min(...xs);
  console.log(`${events} MODIFIED Pod events of ${eventBytes} B over TLS, one stream; CPU µs per event, least of ${ROUNDS}`);
  console.log(`  NODE_OPTIONS: ${process.env['NODE_OPTIONS'] ?? '(none: the default young generation)'}`);
  for (const s of stages)
    console.log(
      `  ${s.name.padEnd(34)} client ${least(s.client).toFixed(1).padStart(6)}   server ${least(s.server).toFixed(1).padStart(5)}`,
    );
  const [tls, decode, map, inf] = stages.map((s) => least(s.client)) as [number, number, number, number];
  const headlines: Headline[] = [
    { label: 'informer client CPU per event / Map stage client CPU per event (10 KiB Pods over TLS)', value: inf / map },
  ];
  writeResult({
    name: 'watch-tls-stages',
    command: 'node scripts/run-bench.mjs watch-tls-stages',
    figures: {
      events,
      eventBytes,
      rounds: ROUNDS,
      nodeOptions: process.env['NODE_OPTIONS'] ?? '',
      tlsClientCpuUs: Number(tls.toFixed(1)),
      decodeClientCpuUs: Number(decode.toFixed(1)),
      mapClientCpuUs: Number(map.toFixed(1)),
      informerClientCpuUs: Number(inf.toFixed(1)),
      informerServerCpuUs: Number(least(stages[3]!.server).toFixed(1)),
    },
    charts: [
      {
        title: `Client CPU per 10 KiB Pod watch event over TLS, stage by stage (µs, lower is better)`,
        unit: 'µs',
        bars: stages.map((s) => ({ label: s.name, value: least(s.client) })),
      },
    ],
    headlines,
  });
  printHeadlines(headlines);
} finally {
  client.close();
  server.stop();
}
