// Child process of bench/informer.bench.ts: runs the local API server on its own core, seeds it, and
// reports { url, replayUrl, rv0, finalRv } over IPC. Seeding goes through the in-process `handle()`
// (no HTTP): 50,000 ConfigMaps in namespace `sync`; 1,000 in `ingest`, then 100,000 updates to those,
// kept in the server's history so that a watch from `rv0` replays all of them.
//
// The API server replays history at a rate well below what a client can parse, which would make an
// ingest benchmark measure the server. So the watch body from `rv0` is also recorded once, byte for
// byte, and `replayUrl` serves it back at socket speed for watch requests; every other request on
// `replayUrl` goes to the same API server. Clients cannot tell the two apart. Both serve plain HTTP
// (the API server with `insecureHttp`, its token still checked) so the clients compared decode the
// same bytes over the same transport; the replay server forwards in process and checks no token.
import { createServer } from 'node:http';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';

const SYNC_OBJECTS = Number(process.env['SYNC_OBJECTS'] ?? 50_000);
const INGEST_OBJECTS = 1_000;
const UPDATES = Number(process.env['UPDATES'] ?? 100_000);

let seed = 7;
const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');

function data(i: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: 8 }, (_, k) => [`key_${k}.yaml`, `setting_${k}: ${hex(24)}\nrevision: ${i}\n`]));
}

async function call(
  s: RunningApiServer,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ metadata: { resourceVersion: string } }> {
  const res = await s.handle({
    method,
    path,
    headers: { 'content-type': contentType, accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as { metadata: { resourceVersion: string } };
}

const server = await startApiServer({ historySize: UPDATES + 50_000, watchBufferSize: UPDATES + 10_000, insecureHttp: true });
for (const ns of ['sync', 'ingest'])
  await call(server, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
const cm = (ns: string, name: string, i: number) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: ns, name, labels: { app: 'bench', shard: String(i % 16) } },
  data: data(i),
});
for (let i = 0; i < SYNC_OBJECTS; i++) await call(server, 'POST', '/api/v1/namespaces/sync/configmaps', cm('sync', `cfg-${i}`, i));
let rv0 = '';
for (let i = 0; i < INGEST_OBJECTS; i++)
  rv0 = (await call(server, 'POST', '/api/v1/namespaces/ingest/configmaps', cm('ingest', `cfg-${i}`, i))).metadata.resourceVersion;
let finalRv = rv0;
for (let i = 0; i < UPDATES; i++) {
  const name = `cfg-${i % INGEST_OBJECTS}`;
  finalRv = (
    await call(
      server,
      'PATCH',
      `/api/v1/namespaces/ingest/configmaps/${name}`,
      { data: { 'key_0.yaml': `revision: ${i}\n` } },
      'application/merge-patch+json',
    )
  ).metadata.resourceVersion;
}
const watchPath = `/api/v1/namespaces/ingest/configmaps?watch=true&resourceVersion=${rv0}`;
const recorded = await new Promise<Buffer>((resolve) => {
  const parts: string[] = [];
  let events = 0;
  void server.handle({ method: 'GET', path: watchPath, headers: { accept: 'application/json' } }).then((res) => {
    const stream = res.stream!;
    stream.attach({
      write: (chunk) => {
        if (events >= UPDATES) return true;
        parts.push(chunk);
        if (chunk.startsWith('{"type":"MODIFIED"') && ++events === UPDATES) {
          stream.detach();
          resolve(Buffer.from(parts.join('')));
        }
        return true;
      },
      end: () => resolve(Buffer.from(parts.join(''))),
    });
  });
});

const replay = createServer((req, res) => {
  const path = req.url ?? '/';
  if (path.includes('watch=true') && path.startsWith('/api/v1/namespaces/ingest/configmaps')) {
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    let offset = 0;
    const pump = (): void => {
      while (offset < recorded.length) {
        const chunk = recorded.subarray(offset, offset + 65_536);
        offset += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      // Then stay open like an idle watch until the client goes away.
    };
    pump();
    return;
  }
  const body: Buffer[] = [];
  req.on('data', (c: Buffer) => body.push(c));
  req.on('end', () => {
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
    void server.handle({ method: req.method ?? 'GET', path, headers, body: body.length ? Buffer.concat(body) : undefined }).then((r) => {
      res.writeHead(r.status, r.headers);
      res.end(r.body);
    });
  });
});
await new Promise<void>((resolve) => replay.listen(0, '127.0.0.1', resolve));
const replayUrl = `http://127.0.0.1:${(replay.address() as { port: number }).port}`;

process.send!({
  url: server.url,
  token: server.token,
  replayUrl,
  rv0,
  finalRv,
  syncObjects: SYNC_OBJECTS,
  updates: UPDATES,
  recordedBytes: recorded.length,
});
process.on('disconnect', () => {
  replay.closeAllConnections();
  replay.close();
  void server.stop().then(() => process.exit(0));
});
