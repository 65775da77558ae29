// How a LIST answer is best decoded, in one process and without sockets: 20,000 realistic Pods
// (test/cache/fixtures/realistic-pod.json, 7.2 KiB of API-server JSON, each copy its own name and uid)
// in pages of 500 as the reflector asks for them, each page cut in 64 KiB chunks as a socket delivers
// it, decoded (1) whole: the chunks joined, one string, one JSON.parse (what the client did before),
// and (2) by ListDecoder: a byte scanner finds each item and each is parsed on its own, the body never
// one string (what the client does). Every item is kept, as a cache keeps them, so the collector's
// work counts. CPU time (`process.cpuUsage`, all threads, GC helpers included), the least of ROUNDS
// interleaved rounds. Prints ListDecoder's CPU time over the whole-body parse last (lower is better;
// below 1 the streaming decoder is the faster). Run: node scripts/run-bench.mjs list-decode
import { readFileSync } from 'node:fs';
import type { KubeObject } from 'kube-converge/meta';
import { printHeadlines, writeResult, type Headline } from './results.js';
import { ListDecoder } from '../src/client/list-decoder.js';

const PODS = Number(process.env['PODS'] ?? 20_000);
const PAGE = 500;
const CHUNK = 65_536;
const ROUNDS = Number(process.env['ROUNDS'] ?? 7);

const pod = JSON.parse(readFileSync(new URL('../test/cache/fixtures/realistic-pod.json', import.meta.url), 'utf8')) as KubeObject;
const pages: Buffer[][] = [];
for (let p = 0; p * PAGE < PODS; p++) {
  const items = Array.from({ length: Math.min(PAGE, PODS - p * PAGE) }, (_, i) => {
    const o = structuredClone(pod);
    return { ...o, metadata: { ...o.metadata, name: `pod-${p}-${i}`, uid: `0000${p}-${i}-4000-8000-000000000000` } };
  });
  const last = (p + 1) * PAGE >= PODS;
  const body = Buffer.from(
    JSON.stringify({
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '4242', ...(last ? {} : { continue: `page-${p + 1}` }) },
      items,
    }),
  );
  const chunks: Buffer[] = [];
  for (let o = 0; o < body.length; o += CHUNK) chunks.push(Buffer.from(body.subarray(o, o + CHUNK)));
  pages.push(chunks);
}
const wire = pages.reduce((s, cs) => s + cs.reduce((t, c) => t + c.length, 0), 0);

type List = { metadata: { continue?: string }; items: unknown[] };
const ways: Record<string, (chunks: Buffer[]) => List> = {
  'whole body, one JSON.parse': (chunks) => JSON.parse(Buffer.concat(chunks).toString('utf8')) as List,
  'ListDecoder, item by item': (chunks) => {
    const d = new ListDecoder<List>();
    for (const c of chunks) d.write(c);
    return d.end();
  },
};

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
function run(decode: (chunks: Buffer[]) => List): number {
  gc();
  const kept: unknown[] = [];
  const t = cpuMs();
  for (const chunks of pages) {
    const list = decode(chunks);
    for (const item of list.items) kept.push(item);
  }
  const ms = cpuMs() - t;
  if (kept.length !== PODS) throw new Error(`decoded ${kept.length} of ${PODS}`);
  return ms;
}

const best = new Map<string, number>(Object.keys(ways).map((k) => [k, Infinity]));
for (const decode of Object.values(ways)) run(decode); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, decode] of Object.entries(ways)) best.set(name, Math.min(best.get(name)!, run(decode)));
}
console.log(
  `${PODS} Pods in LIST pages of ${PAGE}, ${(wire / 2 ** 20).toFixed(1)} MiB in ${CHUNK / 1024} KiB chunks; CPU time, least of ${ROUNDS}`,
);
for (const [name, ms] of best) console.log(`  ${name.padEnd(28)} ${ms.toFixed(0)} ms  ${(wire / 2 ** 20 / (ms / 1000)).toFixed(0)} MiB/s`);
const whole = best.get('whole body, one JSON.parse')!;
const streamed = best.get('ListDecoder, item by item')!;
const headlines: Headline[] = [
  { label: 'ListDecoder CPU / whole-body JSON.parse CPU', value: streamed / whole, goal: '<= 1', met: streamed <= whole },
];
writeResult({
  name: 'list-decode',
  command: 'node scripts/run-bench.mjs list-decode',
  figures: { pods: PODS, wireBytes: wire, wholeCpuMs: Math.round(whole), listDecoderCpuMs: Math.round(streamed) },
  charts: [
    {
      title: `Decoding ${PODS} Pods from LIST pages (CPU ms, lower is better)`,
      unit: 'ms',
      bars: [...best].map(([label, value]) => ({ label, value })),
    },
  ],
  headlines,
});
printHeadlines(headlines);
