// The whole watch path: 50,000 recorded ConfigMap events (1–4 KiB) served over loopback HTTP in
// 16–64 KiB writes and read through client.watch() (transport, backpressure queue, async iterator),
// against the least any Node client must do for the same stream: a bare http.get whose 'data'
// handler feeds WatchDecoder. Both share the same in-process server, so the ratio (printed last) is
// what client.watch() adds on top; the in-memory decoder rate is printed for scale. Rounds
// interleave; each figure is the fastest round.
// Run: node scripts/run-bench.mjs watch-decode-http
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigMapResource } from 'kube-converge/meta';
import { createClient } from 'kube-converge/client';
import { recordStream, seededRandom } from './watch-fixture.js';
import { WatchDecoder } from '../src/client/watch-decoder.js';

const EVENTS = 50_000;
const ROUNDS = 5;

const random = seededRandom(7);
const { rnd, hex, uid } = random;
const lines: string[] = [];
for (let i = 0; i < EVENTS; i++) {
  const keys = 6 + Math.floor(rnd() * 20);
  lines.push(
    JSON.stringify({
      type: i % 5 === 0 ? 'ADDED' : 'MODIFIED',
      object: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cfg-${hex(6)}`, namespace: 'shop', uid: uid(), resourceVersion: String(1_000_000 + i), labels: { app: 'web' } },
        data: Object.fromEntries(
          Array.from({ length: keys }, (_, k) => [`key_${k}.yaml`, `setting_${k}: ${hex(16 + Math.floor(rnd() * 120))}\n`]),
        ),
      },
    }),
  );
}
const { stream, chunks } = recordStream(lines, random);

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  let i = 0;
  const pump = (): void => {
    while (i < chunks.length) if (!res.write(chunks[i++])) return void res.once('drain', pump);
    res.end();
  };
  pump();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const client = createClient({ server: url, qps: -1 });

async function viaHttp(): Promise<number> {
  const t0 = process.hrtime.bigint();
  let n = 0;
  for await (const ev of await client.watch(ConfigMapResource)) if (ev.type) n++;
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (n !== EVENTS) throw new Error(`got ${n} events over HTTP, want ${EVENTS}`);
  return ms;
}

async function bareHttp(): Promise<number> {
  const t0 = process.hrtime.bigint();
  let n = 0;
  const d = new WatchDecoder();
  await new Promise<void>((resolve, reject) => {
    http
      .get(`${url}/api/v1/configmaps?watch=true`, (res) => {
        res.on('data', (c: Buffer) =>
          d.write(c, (ev) => {
            if (ev.type) n++;
          }),
        );
        res.on('end', resolve);
        res.on('error', reject);
      })
      .on('error', reject);
  });
  d.end();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (n !== EVENTS) throw new Error(`got ${n} events over bare HTTP, want ${EVENTS}`);
  return ms;
}

function inMemory(): number {
  const t0 = process.hrtime.bigint();
  let n = 0;
  const d = new WatchDecoder();
  for (const c of chunks)
    d.write(c, (ev) => {
      if (ev.type) n++;
    });
  d.end();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (n !== EVENTS) throw new Error('in-memory miscounted');
  return ms;
}

const gc = (globalThis as { gc?: () => void }).gc;
await viaHttp();
await bareHttp();
inMemory();
const h: number[] = [];
const b: number[] = [];
const m: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  gc?.();
  h.push(await viaHttp());
  gc?.();
  b.push(await bareHttp());
  gc?.();
  m.push(inMemory());
}
client.close();
server.closeAllConnections();
await new Promise((r) => server.close(r));
const rate = (ms: number): string => Math.round(EVENTS / (ms / 1000)).toLocaleString('en');
console.log(`${EVENTS} events, ${(stream.length / 2 ** 20).toFixed(1)} MiB over loopback in ${chunks.length} writes`);
console.log(`WatchDecoder in memory (for scale): ${rate(Math.min(...m))} events/s (best of ${ROUNDS})`);
console.log(`bare http.get + WatchDecoder:       ${rate(Math.min(...b))} events/s (best of ${ROUNDS})`);
console.log(`client.watch() async iterator:      ${rate(Math.min(...h))} events/s (best of ${ROUNDS})`);
console.log(`ratio client.watch() / bare http.get + decoder: ${(Math.min(...b) / Math.min(...h)).toFixed(3)}`);
