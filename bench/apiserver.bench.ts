// API server benchmark, three measurements in one run:
//  1. ConfigMap creates and gets per second over loopback HTTP (16 requests in flight, keep-alive),
//     Converge's server vs a bare node:http server answering the same payloads; each server runs in
//     a child process so it does not share a core with the load generator. Goal: ratio >= 0.5.
//  2. Watch fan-out: the same burst of writes delivered to 1 and to 100 watchers; cost per
//     delivered event (wall time / events delivered) at 100 watchers vs at 1. Goal: within 2x.
//  3. In-process start: startApiServer() to the first served request over HTTPS (median of 10). Goal <= 50 ms.
// Prints the create/get throughput ratio last.
// Run: node scripts/run-bench.mjs apiserver
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { startApiServer } from 'kube-converge/apiserver';

const fmt = (n: number, d = 1): string => n.toFixed(d);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

interface Response {
  status: number;
  body: string;
}

/** A server to load: its URL and the admin token (empty for the bare floor, which checks none). */
interface Target {
  url: string;
  token: string;
}

/** http(s).request by the URL's scheme; the admin token goes on every request. */
function request(target: Target, path: string, options: RequestOptions, onResponse: (res: IncomingMessage) => void): ClientRequest {
  const o = { ...options, headers: { ...options.headers, ...(target.token ? { authorization: `Bearer ${target.token}` } : {}) } };
  return target.url.startsWith('https:')
    ? httpsRequest(`${target.url}${path}`, o, onResponse)
    : httpRequest(`${target.url}${path}`, o, onResponse);
}

function call(
  agent: Agent,
  target: Target,
  method: string,
  path: string,
  body?: string,
  contentType = 'application/json',
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      path,
      {
        agent,
        method,
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': contentType, 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (c: string) => (text += c))
          .on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function spawnServer(mode: 'converge' | 'bare'): Promise<Target & { child: ChildProcess }> {
  const child = fork(new URL('./apiserver-server.ts', import.meta.url), [mode], { execArgv: ['--conditions=source', '--import', 'tsx'] });
  const target = await new Promise<Target>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Target));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return { ...target, child };
}

const configMap = (name: string): string =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels: { app: 'bench', tier: 'backend' }, annotations: { 'converge.dev/bench': 'true' } },
    data: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`key-${i}`, `value-${i}-${'x'.repeat(24)}`])),
  });

/** Runs `total` requests with `inFlight` outstanding at a time; returns requests per second. */
async function throughput(total: number, inFlight: number, one: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) await one(next++);
    }),
  );
  return total / ((performance.now() - t0) / 1000);
}

async function createsAndGets(target: Target, round: number, count: number): Promise<{ creates: number; gets: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const path = '/api/v1/namespaces/default/configmaps';
  const expect = (r: Response, status: number): void => {
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.body.slice(0, 200)}`);
  };
  try {
    const creates = await throughput(count, 16, async (i) =>
      expect(await call(agent, target, 'POST', path, configMap(`cm-${round}-${i}`)), 201),
    );
    const gets = await throughput(count, 16, async (i) => expect(await call(agent, target, 'GET', `${path}/cm-${round}-${i}`), 200));
    return { creates, gets };
  } finally {
    agent.destroy();
  }
}

/** Opens `watchers` watches, then sends `writes` updates (8 in flight) and waits until every watcher saw all of them. */
async function fanOut(target: Target, watchers: number, writes: number, round: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const ns = `fan-${round}`;
  await call(agent, target, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
  const created = await call(agent, target, 'POST', `/api/v1/namespaces/${ns}/configmaps`, configMap('fan'));
  const rv = (JSON.parse(created.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  let pending = watchers;
  let resolveAll!: () => void;
  const allDelivered = new Promise<void>((resolve) => (resolveAll = resolve));
  const streams = await Promise.all(
    Array.from(
      { length: watchers },
      () =>
        new Promise<ReturnType<typeof request>>((resolve, reject) => {
          let lines = 0;
          const req = request(target, `/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${rv}`, { agent: false }, (res) => {
            res.on('data', (chunk: Buffer) => {
              for (const byte of chunk) if (byte === 10 && ++lines === writes && --pending === 0) resolveAll();
            });
            resolve(req);
          });
          req.on('error', (e) => (pending > 0 ? reject(e) : undefined));
          req.end();
        }),
    ),
  );
  const t0 = performance.now();
  await throughput(writes, 8, async (i) => {
    const r = await call(
      agent,
      target,
      'PATCH',
      `/api/v1/namespaces/${ns}/configmaps/fan`,
      JSON.stringify({ data: { counter: String(i) } }),
      'application/merge-patch+json',
    );
    if (r.status !== 200) throw new Error(`patch answered ${r.status}: ${r.body.slice(0, 200)}`);
  });
  await allDelivered;
  const ms = performance.now() - t0;
  for (const s of streams) s.destroy();
  agent.destroy();
  return ms;
}

async function startToFirstRequest(): Promise<number> {
  const t0 = performance.now();
  const server = await startApiServer();
  // HTTPS, as a test would start it; the CA is the process's, made by the first start.
  const agent = new HttpsAgent({ keepAlive: false, ...(server.caCertificate ? { ca: server.caCertificate } : {}) });
  const r = await call(agent, server, 'GET', '/api/v1/namespaces/default');
  const ms = performance.now() - t0;
  if (r.status !== 200) throw new Error(`first request answered ${r.status}`);
  await server.stop();
  return ms;
}

const ours = await spawnServer('converge');
const bare = await spawnServer('bare');
try {
  const COUNT = 4000;
  // Warm both servers' JITs, then measure alternately.
  await createsAndGets(ours, 0, 1000);
  await createsAndGets(bare, 0, 1000);
  const oursRuns: { creates: number; gets: number }[] = [];
  const bareRuns: { creates: number; gets: number }[] = [];
  for (let round = 1; round <= 3; round++) {
    oursRuns.push(await createsAndGets(ours, round, COUNT));
    bareRuns.push(await createsAndGets(bare, round, COUNT));
  }
  const o = { creates: median(oursRuns.map((r) => r.creates)), gets: median(oursRuns.map((r) => r.gets)) };
  const b = { creates: median(bareRuns.map((r) => r.creates)), gets: median(bareRuns.map((r) => r.gets)) };
  console.log(`ConfigMap creates and gets over loopback (${COUNT} each, 16 in flight, median of 3)`);
  console.log(`  converge   creates ${fmt(o.creates, 0)}/s   gets ${fmt(o.gets, 0)}/s`);
  console.log(`  bare http  creates ${fmt(b.creates, 0)}/s   gets ${fmt(b.gets, 0)}/s`);
  const createRatio = o.creates / b.creates;
  const getRatio = o.gets / b.gets;
  console.log(`  converge/bare: creates ${fmt(createRatio, 2)}, gets ${fmt(getRatio, 2)} (goal >= 0.5)`);

  const WRITES = 400;
  await fanOut(ours, 10, WRITES, 0);
  const one: number[] = [];
  const hundred: number[] = [];
  for (let round = 1; round <= 3; round++) {
    one.push(await fanOut(ours, 1, WRITES, round * 2));
    hundred.push(await fanOut(ours, 100, WRITES, round * 2 + 1));
  }
  const perEvent1 = (median(one) * 1000) / WRITES;
  const perEvent100 = (median(hundred) * 1000) / (WRITES * 100);
  console.log(`watch fan-out: ${WRITES} writes (8 in flight), median of 3`);
  console.log(`  1 watcher     ${fmt(median(one), 0)} ms   ${fmt(perEvent1, 1)} us per delivered event`);
  console.log(
    `  100 watchers  ${fmt(median(hundred), 0)} ms   ${fmt(perEvent100, 1)} us per delivered event (${fmt((WRITES * 100) / (median(hundred) / 1000), 0)} events/s)`,
  );
  // What fan-out itself costs: the time the 99 extra watchers added, per extra delivered event.
  const marginal = ((median(hundred) - median(one)) * 1000) / (WRITES * 99);
  console.log(`  marginal cost per extra delivered event: ${fmt(marginal, 1)} us (the write path with 1 watcher: ${fmt(perEvent1, 1)} us)`);
  console.log(`  cost per delivered event, 100 watchers / 1 watcher: ${fmt(perEvent100 / perEvent1, 2)} (goal <= 2)`);

  await startToFirstRequest();
  const starts: number[] = [];
  for (let i = 0; i < 10; i++) starts.push(await startToFirstRequest());
  console.log(
    `in-process startApiServer() to first served request: median ${fmt(median(starts), 1)} ms, max ${fmt(Math.max(...starts), 1)} ms (goal <= 50 ms)`,
  );

  console.log(`ratio converge/bare http (lower of creates, gets): ${fmt(Math.min(createRatio, getRatio), 2)}`);
} finally {
  ours.child.disconnect();
  bare.child.disconnect();
}
