// Child process of bench/sync/pods.bench.ts: a front that serves PODS realistic Pods the way an API
// server does (paginated LIST with `limit`/`continue`, an unpaginated LIST, a streaming list with
// `sendInitialEvents` ending in the initial-events-end bookmark, then an idle watch), from bytes made
// once, so the clients compared are bounded by their own decoding and storing, never by the server,
// and every client decodes the same bytes. The Pods are real API-server output: TEMPLATES Pods are
// created in Converge's API server (by "kube-controller-manager", status by "kubelet", so each has the
// two managedFields entries a cluster's Pods have) and read back; the others are copies of those with
// their own name, uid, resourceVersion and IPs. Seeding every Pod through the server would take
// minutes and measure nothing more. Reports { url, token, pods, namespace } over IPC.
import { createServer, type ServerResponse } from 'node:http';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import { podSpec, podStatus } from './pod-fixture.js';
import { seededRandom } from '../watch-fixture.js';

const PODS = Number(process.env['PODS'] ?? 50_000);
const TEMPLATES = 200;
const NAMESPACE = 'shop';
const TOKEN = 'bench-token';

async function call(s: RunningApiServer, method: string, path: string, agent: string, body?: unknown, contentType = 'application/json') {
  const res = await s.handle({
    method,
    path,
    headers: { 'content-type': contentType, accept: 'application/json', 'user-agent': agent },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

const server = await startApiServer({ insecureHttp: true });
await call(server, 'POST', '/api/v1/namespaces', 'kubectl/v1.31.0', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
const templates: string[] = [];
for (let i = 0; i < TEMPLATES; i++) {
  const pod = podSpec(i, NAMESPACE);
  const name = (pod['metadata'] as { name: string }).name;
  await call(server, 'POST', `/api/v1/namespaces/${NAMESPACE}/pods`, 'kube-controller-manager/v1.31.0', pod);
  const status = { status: podStatus(i) };
  templates.push(
    JSON.stringify(
      await call(
        server,
        'PATCH',
        `/api/v1/namespaces/${NAMESPACE}/pods/${name}/status`,
        'kubelet/v1.31.0',
        status,
        'application/merge-patch+json',
      ),
    ),
  );
}
await server.stop();

/** Pod `i`: a copy of template `i % TEMPLATES` with its own identity; sorted by name like a LIST. */
const r = seededRandom(42);
const items = Array.from({ length: PODS }, (_, i) => {
  const pod = JSON.parse(templates[i % TEMPLATES]!) as {
    metadata: { name: string; uid: string; resourceVersion: string; generateName: string };
    status: { podIP: string; podIPs: { ip: string }[] };
  };
  pod.metadata.name = `${pod.metadata.generateName}${r.hex(5)}-${i}`;
  pod.metadata.uid = r.uid();
  pod.metadata.resourceVersion = String(1000 + i);
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  pod.status.podIP = ip;
  pod.status.podIPs = [{ ip }];
  return pod;
})
  .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))
  .map((p) => JSON.stringify(p));
const RV = String(1000 + PODS);

function list(offset: number, limit: number): string {
  const end = Math.min(items.length, offset + limit);
  const more = end < items.length ? `,"continue":"${end}","remainingItemCount":${items.length - end}` : '';
  return `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"${RV}"${more}},"items":[${items.slice(offset, end).join(',')}]}`;
}

const initialEvents = Buffer.from(
  items.map((o) => `{"type":"ADDED","object":${o}}\n`).join('') +
    `{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"${RV}","annotations":{"k8s.io/initial-events-end":"true"}}}}\n`,
);

/** Writes `bytes` at socket speed, then stays open like an idle watch until the client goes away. */
function stream(res: ServerResponse, bytes: Buffer): void {
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }).flushHeaders();
  let offset = 0;
  const pump = (): void => {
    while (offset < bytes.length) {
      const chunk = bytes.subarray(offset, offset + 65_536);
      offset += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
}

const front = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const q = url.searchParams;
  if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end();
  if (url.pathname !== `/api/v1/namespaces/${NAMESPACE}/pods` || req.method !== 'GET') return void res.writeHead(404).end();
  if (q.get('watch') === 'true' || q.get('watch') === '1') {
    return stream(res, q.get('sendInitialEvents') === 'true' ? initialEvents : Buffer.alloc(0));
  }
  const limit = Number(q.get('limit') ?? 0);
  const body = list(Number(q.get('continue') ?? 0), limit > 0 ? limit : items.length);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
});
await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));

process.send!({ url: `http://127.0.0.1:${(front.address() as { port: number }).port}`, token: TOKEN, pods: PODS, namespace: NAMESPACE });
process.on('disconnect', () => {
  front.closeAllConnections();
  front.close(() => process.exit(0));
});
