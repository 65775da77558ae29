// Informer benchmark, side by side in one run against one local API server (in a child process, so it
// does not share a core with the informers): initial sync of 50,000 ConfigMaps, then steady-state
// ingest of 100,000 updates, for Converge's SharedIndexInformer and @kubernetes/client-node's informer
// (v1). For ingest each informer lists the `ingest` namespace as of `rv0` and then watches from there,
// so its watch carries all 100,000 updates. Ingest is measured twice: from the API server itself
// (bounded by how fast it replays history) and from the same server's watch bytes recorded and served
// back at socket speed (bounded by the client: parse, index update, handler dispatch). Converge runs as
// in production (`freeze: false`, what `NODE_ENV=production` selects) and, for ingest, also as in
// tests and development (`freeze: true`). Beside them, two references for the replayed ingest: the
// JSON.parse ceiling over the very same watch lines, and the floor, a minimal informer reading the
// same socket (LIST into a Map, then each watch line cut from its chunk, parsed and kept in the Map by
// namespace/name; no indexes, no handlers). Prints wall time and heap for each, then Converge's and
// client-node's rates as shares of the ceiling and of the floor, Converge over client-node last. The
// replayed ingest runs INGEST_ROUNDS interleaved rounds and states each client's least time: on a
// 2-core VM one client's rounds spread by a fifth or more (whether a major GC falls in a round, what
// the other process is doing), more than the differences measured, and the least is the round with
// the least interference. Each client's CPU time is shown beside it.
// Run: node scripts/run-bench.mjs informer.bench   (goals: >= 0.6 of the ceiling, >= 0.85 of the floor, >= 1.8x client-node)
import { fork } from 'node:child_process';
import { request } from 'node:http';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { createListerWatcher, createSharedIndexInformer, type ListerWatcher } from 'kube-converge/cache';
import { bearerTokenAuth, createClient } from 'kube-converge/client';
import { ConfigMapResource, type KubeObject } from 'kube-converge/meta';
import { printHeadlines, writeResult } from './results.js';
import { onWatchLines } from './watch-lines.js';

interface Seeded {
  url: string;
  token: string;
  replayUrl: string;
  rv0: string;
  finalRv: string;
  syncObjects: number;
  updates: number;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heapMiB = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const fmt = (n: number, d = 1): string => n.toFixed(d);

/** The heap after whatever the previous run left behind (aborted requests, sockets) had time to go. */
async function quietHeapMiB(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return heapMiB();
}

/** Samples heapUsed every 10 ms while `work` runs; returns the peak growth over the starting heap (MiB). */
async function peakHeap<T>(work: () => Promise<T>): Promise<[T, number]> {
  const base = await quietHeapMiB();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed / 2 ** 20)), 10);
  try {
    const r = await work();
    return [r, Math.max(peak, process.memoryUsage().heapUsed / 2 ** 20) - base];
  } finally {
    clearInterval(timer);
  }
}

const server = fork(new URL('./informer-server.ts', import.meta.url), { execArgv: ['--conditions=source', '--import', 'tsx'] });
const seeded = await new Promise<Seeded>((resolve, reject) => {
  server.once('message', (m) => resolve(m as Seeded));
  server.once('exit', (code) => reject(new Error(`API server process exited with ${code}`)));
});
const { url, token, replayUrl, rv0, finalRv, syncObjects, updates } = seeded;

function clientsFor(server: string) {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'local', server, skipTLSVerify: true }],
    users: [{ name: 'admin', token }],
    contexts: [{ name: 'local', cluster: 'local', user: 'admin' }],
    currentContext: 'local',
  });
  return { converge: createClient({ config: { server, auth: bearerTokenAuth(token), qps: -1 } }), kc, core: kc.makeApiClient(CoreV1Api) };
}
type Clients = ReturnType<typeof clientsFor>;
const live = clientsFor(url);
const replayed = clientsFor(replayUrl);

// ---- initial sync ---------------------------------------------------------------------------------

async function syncConverge({ converge: client }: Clients): Promise<{ ms: number; heap: number; objects: number }> {
  const before = await quietHeapMiB();
  const ac = new AbortController();
  const t0 = performance.now();
  const informer = createSharedIndexInformer<KubeObject>({
    listerWatcher: createListerWatcher<KubeObject>({ client, resource: ConfigMapResource, namespace: 'sync' }),
    freeze: false,
  });
  const run = informer.run(ac.signal);
  await informer.waitForSync();
  const ms = performance.now() - t0;
  const heap = heapMiB() - before;
  const objects = informer.getIndexer().list().length;
  ac.abort();
  await run;
  return { ms, heap, objects };
}

async function syncClientNode({ kc, core }: Clients): Promise<{ ms: number; heap: number; objects: number }> {
  const before = await quietHeapMiB();
  const t0 = performance.now();
  const informer = makeInformer<V1ConfigMap>(kc, '/api/v1/namespaces/sync/configmaps', () =>
    core.listNamespacedConfigMap({ namespace: 'sync' }),
  );
  await informer.start();
  const ms = performance.now() - t0;
  const heap = heapMiB() - before;
  const objects = informer.list().length;
  await informer.stop();
  return { ms, heap, objects };
}

/** JSON.parse over the `sync` namespace's LIST pages as the reflector asks for them (500 a page): median of 3, in ms. */
async function syncCeiling(): Promise<number> {
  const pages: string[] = [];
  let cont = '';
  do {
    const q = cont ? `limit=500&continue=${encodeURIComponent(cont)}` : 'limit=500&resourceVersion=0';
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(`${url}/api/v1/namespaces/sync/configmaps?${q}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
      });
      req.on('error', reject);
      req.end();
    });
    pages.push(body);
    cont = (JSON.parse(body) as { metadata: { continue?: string } }).metadata.continue ?? '';
  } while (cont);
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    const items: unknown[] = [];
    for (const p of pages) for (const it of (JSON.parse(p) as { items: unknown[] }).items) items.push(it);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[1]!;
}

// ---- ingest ---------------------------------------------------------------------------------------

/** The recorded watch lines from rv0, and the least time JSON.parse takes over them in 5 rounds. */
async function parseCeiling(): Promise<{ ms: number; bytes: number }> {
  const lines: string[] = [];
  let bytes = 0;
  await new Promise<void>((resolve, reject) => {
    const req = request(`${replayUrl}/api/v1/namespaces/ingest/configmaps?watch=true&resourceVersion=${rv0}`, (res) => {
      res.setEncoding('utf8');
      let rest = '';
      res.on('data', (chunk: string) => {
        bytes += Buffer.byteLength(chunk);
        const parts = (rest + chunk).split('\n');
        rest = parts.pop()!;
        for (const p of parts) if (p.startsWith('{"type":"MODIFIED"')) lines.push(p);
        if (lines.length >= updates) {
          req.destroy();
          resolve();
        }
      });
    });
    req.on('error', (e) => (lines.length >= updates ? resolve() : reject(e)));
    req.end();
  });
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    gc();
    const t0 = performance.now();
    let sink = 0;
    for (const l of lines) sink += (JSON.parse(l) as { type: string }).type.length;
    times.push(performance.now() - t0);
    if (sink === 0) throw new Error('no lines parsed');
  }
  times.sort((a, b) => a - b);
  return { ms: times[0]!, bytes };
}

/** Wall time and this process's CPU time (all its threads, the collector's included) of one ingest. */
interface Ingest {
  ms: number;
  cpuMs: number;
}
/** Starts the clocks of one ingest; the function it returns reads both. */
function startTiming(): () => Ingest {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  return () => {
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
}

async function ingestConverge({ converge: client }: Clients, freeze = false): Promise<Ingest> {
  const lw = createListerWatcher<KubeObject>({ client, resource: ConfigMapResource, namespace: 'ingest' });
  // List the state as of rv0 so that the watch which follows carries every update after it.
  const fromRv0: ListerWatcher<KubeObject> = {
    ...lw,
    list: (o) => lw.list({ signal: o.signal, resourceVersion: rv0, resourceVersionMatch: 'Exact' }),
  };
  const informer = createSharedIndexInformer<KubeObject>({ listerWatcher: fromRv0, freeze });
  let seen = 0;
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  informer.addEventHandler({ onUpdate: () => void (++seen === updates && done()) });
  const ac = new AbortController();
  const timing = startTiming();
  const run = informer.run(ac.signal);
  await all;
  const measured = timing();
  if (informer.lastSyncResourceVersion() !== finalRv) throw new Error(`stopped at ${informer.lastSyncResourceVersion()}, not ${finalRv}`);
  ac.abort();
  await run;
  return measured;
}

/** GET `path` on `base` and parse the JSON body. */
function getJson<R>(base: string, path: string): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(parts).toString('utf8')) as R));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The floor: the least an informer does for the same ingest. LIST as of rv0 into a Map, then the watch
 * from rv0 read with a bare http.request, each line cut from its chunk (one string per line), parsed
 * and kept in the Map by namespace/name, until every update arrived. No indexes, handlers or freeze.
 */
async function ingestFloor(): Promise<Ingest> {
  const timing = startTiming();
  const store = new Map<string, KubeObject>();
  const list = await getJson<{ items: KubeObject[] }>(
    replayUrl,
    `/api/v1/namespaces/ingest/configmaps?resourceVersion=${rv0}&resourceVersionMatch=Exact`,
  );
  for (const o of list.items) store.set(`${o.metadata.namespace}/${o.metadata.name}`, o);
  let seen = 0;
  await new Promise<void>((resolve, reject) => {
    const req = request(`${replayUrl}/api/v1/namespaces/ingest/configmaps?watch=true&resourceVersion=${rv0}`, (res) => {
      res.on(
        'data',
        onWatchLines((line) => {
          const { type, object } = JSON.parse(line) as { type: string; object: KubeObject };
          store.set(`${object.metadata.namespace}/${object.metadata.name}`, object);
          if (type !== 'MODIFIED' || ++seen !== updates) return false;
          req.destroy();
          resolve();
          return true;
        }),
      );
    });
    req.on('error', (e) => (seen >= updates ? resolve() : reject(e)));
    req.end();
  });
  const measured = timing();
  if (store.get('ingest/cfg-0')?.metadata.resourceVersion === undefined) throw new Error('floor kept nothing');
  return measured;
}

async function ingestClientNode({ kc, core }: Clients): Promise<Ingest> {
  const informer = makeInformer<V1ConfigMap>(kc, '/api/v1/namespaces/ingest/configmaps', () =>
    core.listNamespacedConfigMap({ namespace: 'ingest', resourceVersion: rv0, resourceVersionMatch: 'Exact' }),
  );
  let seen = 0;
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  informer.on('update', () => void (++seen === updates && done()));
  const timing = startTiming();
  await informer.start();
  await all;
  const measured = timing();
  await informer.stop();
  return measured;
}

// ---- run ------------------------------------------------------------------------------------------

const rate = (ms: number): number => updates / (ms / 1000);
const ROUNDS = 3;
const INGEST_ROUNDS = 7;
try {
  // One unmeasured sync each (warm JITs), then ROUNDS interleaved rounds; medians reported.
  await syncConverge(live);
  await syncClientNode(live);
  const oursSync: Awaited<ReturnType<typeof syncConverge>>[] = [];
  const theirsSync: Awaited<ReturnType<typeof syncClientNode>>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    oursSync.push(await syncConverge(live));
    theirsSync.push(await syncClientNode(live));
  }
  const byTime = <R extends { ms: number }>(xs: R[]): R => [...xs].sort((a, b) => a.ms - b.ms)[Math.floor(xs.length / 2)]!;
  const syncOurs = byTime(oursSync);
  const syncTheirs = byTime(theirsSync);
  console.log(`initial sync of ${syncObjects} ConfigMaps (median of ${ROUNDS} rounds)`);
  console.log(`  converge     ${fmt(syncOurs.ms, 0)} ms  retained heap ${fmt(syncOurs.heap)} MiB  (${syncOurs.objects} objects)`);
  console.log(`  client-node  ${fmt(syncTheirs.ms, 0)} ms  retained heap ${fmt(syncTheirs.heap)} MiB  (${syncTheirs.objects} objects)`);
  console.log(`  converge/client-node: time ${fmt(syncOurs.ms / syncTheirs.ms, 2)}x, heap ${fmt(syncOurs.heap / syncTheirs.heap, 2)}x`);
  const syncCeil = await syncCeiling();
  console.log(`  JSON.parse ceiling over the same LIST pages ${fmt(syncCeil, 0)} ms; converge ${fmt(syncOurs.ms / syncCeil, 2)}x of it`);

  const liveOurs = await ingestConverge(live);
  const liveTheirs = await ingestClientNode(live);
  console.log(`ingest of ${updates} updates from the API server (bounded by its history replay)`);
  console.log(`  converge     ${fmt(liveOurs.ms, 0)} ms  ${fmt(rate(liveOurs.ms), 0)} events/s`);
  console.log(`  client-node  ${fmt(liveTheirs.ms, 0)} ms  ${fmt(rate(liveTheirs.ms), 0)} events/s`);

  const ceiling = await parseCeiling();
  const clients = {
    floor: ingestFloor,
    ours: () => ingestConverge(replayed),
    dev: () => ingestConverge(replayed, true),
    theirs: () => ingestClientNode(replayed),
  };
  // One unmeasured replayed ingest each (warm JITs), then INGEST_ROUNDS interleaved rounds. Every client
  // runs inside peakHeap, so each starts from the same collected heap: when only some did, the
  // comparison depended on which (a run right after a full GC meets a heap limit sized from the small
  // live heap, and collects on a different schedule).
  for (const run of Object.values(clients)) await run();
  const runs = new Map<keyof typeof clients, { ingest: Ingest; peak: number }[]>();
  for (let round = 0; round < INGEST_ROUNDS; round++) {
    for (const [name, run] of Object.entries(clients) as [keyof typeof clients, () => Promise<Ingest>][]) {
      const [ingest, peak] = await peakHeap(run);
      runs.set(name, [...(runs.get(name) ?? []), { ingest, peak }]);
    }
  }
  /** A client's least wall time, least CPU time and greatest peak heap growth over its rounds. */
  const summary = (name: keyof typeof clients): Ingest & { peak: number } => {
    const rs = runs.get(name)!;
    return {
      ms: Math.min(...rs.map((r) => r.ingest.ms)),
      cpuMs: Math.min(...rs.map((r) => r.ingest.cpuMs)),
      peak: Math.max(...rs.map((r) => r.peak)),
    };
  };
  const floor = summary('floor');
  const ours = summary('ours');
  const dev = summary('dev');
  const theirs = summary('theirs');
  console.log(
    `ingest of ${updates} updates replayed at socket speed (${fmt(ceiling.bytes / 2 ** 20)} MiB of watch stream; least of ${INGEST_ROUNDS} rounds)`,
  );
  const shares = (r: Ingest & { peak: number }): string =>
    `${fmt(rate(r.ms), 0)} events/s  ${fmt(ceiling.ms / r.ms, 2)} of the ceiling, ${fmt(floor.ms / r.ms, 2)} of the floor  peak heap growth ${fmt(r.peak)} MiB`;
  console.log(`  JSON.parse ceiling         ${fmt(ceiling.ms, 0)} ms  ${fmt(rate(ceiling.ms), 0)} events/s`);
  console.log(`  Map floor (socket)         ${fmt(floor.ms, 0)} ms  ${shares(floor)}`);
  console.log(`  converge (production)      ${fmt(ours.ms, 0)} ms  ${shares(ours)}`);
  console.log(`  converge (freeze, dev)     ${fmt(dev.ms, 0)} ms  ${shares(dev)}`);
  console.log(`  client-node                ${fmt(theirs.ms, 0)} ms  ${shares(theirs)}`);
  console.log(`  converge/client-node ingest rate: ${fmt(theirs.ms / ours.ms, 2)}x`);
  // CPU time of this process (the client; the replay server is another process), which the machine's
  // load moves far less than wall time: at socket speed each client is bound by its own CPU.
  const cpuShare = (r: Ingest): string => `${fmt(ceiling.ms / r.cpuMs, 2)} of the ceiling, ${fmt(floor.cpuMs / r.cpuMs, 2)} of the floor`;
  console.log(`client CPU time of the same ingest (least of ${INGEST_ROUNDS} rounds; the ceiling is its wall time, one synchronous loop)`);
  console.log(`  Map floor (socket)         ${fmt(floor.cpuMs, 0)} ms  ${cpuShare(floor)}`);
  console.log(`  converge (production)      ${fmt(ours.cpuMs, 0)} ms  ${cpuShare(ours)}`);
  console.log(`  converge (freeze, dev)     ${fmt(dev.cpuMs, 0)} ms  ${cpuShare(dev)}`);
  console.log(`  client-node                ${fmt(theirs.cpuMs, 0)} ms  ${cpuShare(theirs)}`);
  const headlines = [
    {
      label: 'initial sync time / JSON.parse ceiling (ConfigMaps, LIST)',
      value: syncOurs.ms / syncCeil,
      goal: '<= 1.5',
      met: syncOurs.ms / syncCeil <= 1.5,
    },
    { label: 'client-node ingest rate / JSON.parse ceiling', value: ceiling.ms / theirs.ms },
    { label: 'client-node ingest rate / Map floor', value: floor.ms / theirs.ms },
    { label: 'converge (freeze, dev) ingest rate / JSON.parse ceiling', value: ceiling.ms / dev.ms },
    { label: 'converge ingest rate / Map floor, from client CPU time', value: floor.cpuMs / ours.cpuMs },
    { label: 'converge ingest rate / client-node, from client CPU time', value: theirs.cpuMs / ours.cpuMs },
    { label: 'converge ingest rate / JSON.parse ceiling', value: ceiling.ms / ours.ms, goal: '>= 0.6', met: ceiling.ms / ours.ms >= 0.6 },
    { label: 'converge ingest rate / Map floor', value: floor.ms / ours.ms, goal: '>= 0.85', met: floor.ms / ours.ms >= 0.85 },
    { label: 'converge ingest rate / client-node', value: theirs.ms / ours.ms, goal: '>= 1.8', met: theirs.ms / ours.ms >= 1.8 },
  ];
  writeResult({
    name: 'informer-configmaps',
    command: 'node scripts/run-bench.mjs informer.bench',
    figures: {
      syncObjects,
      syncCeilingMs: Math.round(syncCeil),
      syncConvergeMs: Math.round(syncOurs.ms),
      syncClientNodeMs: Math.round(syncTheirs.ms),
      syncConvergeHeapMiB: Number(fmt(syncOurs.heap)),
      syncClientNodeHeapMiB: Number(fmt(syncTheirs.heap)),
      updates,
      ingestCeilingMs: Math.round(ceiling.ms),
      ingestFloorMs: Math.round(floor.ms),
      ingestConvergeMs: Math.round(ours.ms),
      ingestConvergeFreezeMs: Math.round(dev.ms),
      ingestClientNodeMs: Math.round(theirs.ms),
      ingestFloorCpuMs: Math.round(floor.cpuMs),
      ingestConvergeCpuMs: Math.round(ours.cpuMs),
      ingestConvergeFreezeCpuMs: Math.round(dev.cpuMs),
      ingestClientNodeCpuMs: Math.round(theirs.cpuMs),
    },
    charts: [
      {
        title: `Ingest of ${updates} MODIFIED events, 1.5 KiB ConfigMaps (events/s, higher is better)`,
        unit: 'events/s',
        bars: [
          { label: 'JSON.parse ceiling', value: rate(ceiling.ms) },
          { label: 'Map floor', value: rate(floor.ms) },
          { label: 'converge', value: rate(ours.ms) },
          { label: 'converge (freeze, dev)', value: rate(dev.ms) },
          { label: 'client-node', value: rate(theirs.ms) },
        ],
        mark: { label: 'goal 0.6x ceiling', value: 0.6 * rate(ceiling.ms) },
      },
      {
        title: `Initial sync of ${syncObjects} ConfigMaps (ms, lower is better)`,
        unit: 'ms',
        bars: [
          { label: 'JSON.parse ceiling', value: syncCeil },
          { label: 'converge', value: syncOurs.ms },
          { label: 'client-node', value: syncTheirs.ms },
        ],
        mark: { label: 'goal 1.5x ceiling', value: 1.5 * syncCeil },
      },
    ],
    headlines,
  });
  printHeadlines(headlines);
} finally {
  live.converge.close();
  replayed.converge.close();
  server.disconnect();
}
