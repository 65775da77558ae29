// Imports apiserver's internal (private) face: machinery shared between layers that the package does not export.
// Child process of bench/watch-decode-tls.bench.ts: an HTTPS server (loopback certificate signed by a
// CA of its own) that answers a Pod LIST with OBJECTS Pods at resourceVersion OBJECTS, and any watch
// with EVENTS recorded MODIFIED events of ~10 KiB Pods on one stream, written in 64 KiB pieces as fast
// as the socket takes them, so the client is what bounds the rate. The Pods are the API server's own
// output (test/cache/fixtures/realistic-pod.json: two managedFields entries, owner, probes, status)
// grown to 10 KiB with environment variables, each event with its own name, uid and resourceVersion.
// Reports { url, caPem, objects, events, eventBytes, streamBytes } over IPC, then answers every
// message with its CPU µs so far (bench/watch-tls-child.ts asks).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { servingMaterial } from '../src/apiserver/internal.js';

const OBJECTS = 1_000;
const EVENTS = Number(process.env['EVENTS'] ?? 50_000);
const TARGET_BYTES = 10 * 1024;

const template = readFileSync(new URL('../test/cache/fixtures/realistic-pod.json', import.meta.url), 'utf8');

/** Pod `i` at `rv`, grown to TARGET_BYTES of JSON with env vars on its first container. */
function pod(i: number, rv: number): Record<string, unknown> {
  const p = JSON.parse(template) as {
    metadata: { name: string; uid: string; resourceVersion: string };
    spec: { containers: { env?: { name: string; value: string }[] }[] };
  };
  p.metadata.name = `${p.metadata.name}-${i}`;
  p.metadata.uid = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
  p.metadata.resourceVersion = String(rv);
  const env = (p.spec.containers[0]!.env ??= []);
  // Serialising once and adding each entry's length (and its comma) gives the length a stringify
  // after every push would, without writing 10 KiB per entry.
  for (let k = 0, length = JSON.stringify(p).length; length < TARGET_BYTES; k++) {
    const entry = { name: `FEATURE_FLAG_${k}`, value: `enabled-for-tenant-${(i * 31 + k) % 997}` };
    length += JSON.stringify(entry).length + (env.length > 0 ? 1 : 0);
    env.push(entry);
  }
  return p;
}

const listBody = JSON.stringify({
  apiVersion: 'v1',
  kind: 'PodList',
  metadata: { resourceVersion: String(OBJECTS) },
  items: Array.from({ length: OBJECTS }, (_, i) => pod(i, i + 1)),
});
const lines = Array.from({ length: EVENTS }, (_, u) => JSON.stringify({ type: 'MODIFIED', object: pod(u % OBJECTS, OBJECTS + 1 + u) }));
const stream = Buffer.from(lines.join('\n') + '\n');
const eventBytes = Math.round(stream.length / EVENTS);

const material = await servingMaterial('127.0.0.1');
const server = createServer({ cert: material.cert, key: material.key }, (req, res) => {
  if (!(req.url ?? '').includes('watch=true')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(listBody);
  }
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  let offset = 0;
  const pump = (): void => {
    while (offset < stream.length) {
      const piece = stream.subarray(offset, offset + 65_536);
      offset += piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    // The stream stays open, as a watch does, until the client closes it.
  };
  pump();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
process.send!({ url, caPem: material.caPem, objects: OBJECTS, events: EVENTS, eventBytes, streamBytes: stream.length });
// The parent asks for this process's CPU time (µs, user + system) before and after each run.
process.on('message', () => {
  const { user, system } = process.cpuUsage();
  process.send!(user + system);
});
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close();
});
