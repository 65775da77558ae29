// Initial sync and retained memory of 50,000 realistic Pods (bench/sync/pod-fixture.ts: ~3.5 KiB each
// as a cluster returns them, two managedFields entries), side by side in one run against one replaying
// front (bench/sync/pods-server.ts, in a child process), for:
//   - the JSON.parse ceiling: parsing the very bytes the informer receives, and keeping the result;
//   - Converge's SharedIndexInformer as it comes (everything kept), paginated LIST;
//   - the same with managedFields dropped (the manager cache's default), paginated LIST and streaming
//     watch-list (`sendInitialEvents`);
//   - @kubernetes/client-node's informer (one unpaginated LIST, as it does).
// Each is measured fresh ROUNDS times, interleaved; medians reported. Every path's time, the
// streaming watch-list's included, is divided by one denominator: the JSON.parse ceiling over the
// LIST pages (the same Pods' bytes), so the ratios compare with each other. Heap is `heapUsed` after two GCs
// minus the same before; the peak during a sync is sampled every 10 ms and at every 500th object.
// Converge runs as in production (`freeze: false`). Run: node scripts/run-bench.mjs sync/pods
// (goals: sync <= 1.5x the ceiling, peak <= 2x settled, retained <= 0.45x client-node's). Prints
// converge/client-node retained heap last.
import { fork } from 'node:child_process';
import { request } from 'node:http';
import { CoreV1Api, KubeConfig, makeInformer, type V1Pod } from '@kubernetes/client-node';
import { createListerWatcher, createSharedIndexInformer } from 'kube-converge/cache';
import { bearerTokenAuth, createClient } from 'kube-converge/client';
import { stripManagedFields } from 'kube-converge/manager';
import { PodResource, type KubeObject } from 'kube-converge/meta';
import { printHeadlines, writeResult, type Headline } from '../results.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heap = (): number => process.memoryUsage().heapUsed;
const settledHeap = async (): Promise<number> => {
  await new Promise((r) => setTimeout(r, 200));
  gc();
  gc();
  return heap();
};
const MiB = 2 ** 20;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const child = fork(new URL('./pods-server.ts', import.meta.url), { execArgv: ['--conditions=source', '--import', 'tsx'] });
const { url, token, pods, namespace } = await new Promise<{ url: string; token: string; pods: number; namespace: string }>(
  (resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`API server process exited with ${code}`)));
  },
);

function get(path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve(Buffer.concat(parts)));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The paginated LIST as the reflector asks for it (500 a page), as raw bytes per page. */
async function listPages(): Promise<Buffer[]> {
  const pages: Buffer[] = [];
  let cont = '';
  do {
    const q = cont ? `limit=500&continue=${encodeURIComponent(cont)}` : 'limit=500&resourceVersion=0';
    const body = await get(`/api/v1/namespaces/${namespace}/pods?${q}`);
    pages.push(body);
    cont = (JSON.parse(body.toString('utf8')) as { metadata: { continue?: string } }).metadata.continue ?? '';
  } while (cont);
  return pages;
}

/** JSON.parse over the same pages, keeping every item: the time and the heap a cache cannot go below. */
async function ceiling(pages: Buffer[]): Promise<{ ms: number; retained: number; peak: number }> {
  const before = await settledHeap();
  let peak = before;
  const t0 = performance.now();
  const items: unknown[] = [];
  for (const p of pages) {
    for (const it of (JSON.parse(p.toString('utf8')) as { items: unknown[] }).items) items.push(it);
    peak = Math.max(peak, heap());
  }
  const ms = performance.now() - t0;
  const retained = (await settledHeap()) - before;
  if (items.length !== pods) throw new Error(`ceiling parsed ${items.length} of ${pods}`);
  return { ms, retained, peak: peak - before };
}

interface Sync {
  ms: number;
  retained: number;
  peak: number;
  objects: number;
}

/** Runs `start` (resolving once synced) while sampling the heap; `count` says how many objects are held. */
async function measure(start: (sample: () => void) => Promise<{ count: () => number; stop: () => Promise<void> }>): Promise<Sync> {
  const before = await settledHeap();
  let peak = before;
  const sample = (): void => void (peak = Math.max(peak, heap()));
  const timer = setInterval(sample, 10);
  const t0 = performance.now();
  const running = await start(sample);
  const ms = performance.now() - t0;
  clearInterval(timer);
  sample();
  const retained = (await settledHeap()) - before;
  const objects = running.count();
  await running.stop();
  return { ms, retained, peak: peak - before, objects };
}

const converge = createClient({ config: { server: url, auth: bearerTokenAuth(token), qps: -1 } });

function syncConverge(o: { strip: boolean; watchList: boolean }): Promise<Sync> {
  return measure(async (sample) => {
    let n = 0;
    const informer = createSharedIndexInformer<KubeObject>({
      listerWatcher: createListerWatcher<KubeObject>({ client: converge, resource: PodResource, namespace }),
      transform: (obj) => {
        if (++n % 500 === 0) sample();
        return o.strip ? stripManagedFields(obj) : obj;
      },
      reflector: { watchList: o.watchList },
      // As in production (NODE_ENV=production): stored as decoded, no freeze walk.
      freeze: false,
    });
    const ac = new AbortController();
    const run = informer.run(ac.signal);
    await informer.waitForSync();
    return {
      count: () => informer.getIndexer().list().length,
      stop: async () => {
        ac.abort();
        await run;
      },
    };
  });
}

const kc = new KubeConfig();
kc.loadFromOptions({
  clusters: [{ name: 'local', server: url, skipTLSVerify: true }],
  users: [{ name: 'admin', token }],
  contexts: [{ name: 'local', cluster: 'local', user: 'admin' }],
  currentContext: 'local',
});
const core = kc.makeApiClient(CoreV1Api);

function syncClientNode(): Promise<Sync> {
  return measure(async () => {
    const informer = makeInformer<V1Pod>(kc, `/api/v1/namespaces/${namespace}/pods`, () => core.listNamespacedPod({ namespace }));
    await informer.start();
    return { count: () => informer.list().length, stop: () => informer.stop() };
  });
}

const runs = {
  'converge, all fields, LIST': () => syncConverge({ strip: false, watchList: false }),
  'converge, managedFields dropped, LIST': () => syncConverge({ strip: true, watchList: false }),
  'converge, managedFields dropped, watch-list': () => syncConverge({ strip: true, watchList: true }),
  'client-node, LIST': () => syncClientNode(),
};
type Name = keyof typeof runs;

try {
  const pages = await listPages();
  const wire = pages.reduce((s, p) => s + p.length, 0);
  // Warm every path once, then interleaved rounds.
  await ceiling(pages);
  for (const run of Object.values(runs)) await run();
  const ceilings: Awaited<ReturnType<typeof ceiling>>[] = [];
  const results = new Map<Name, Sync[]>(Object.keys(runs).map((k) => [k as Name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    ceilings.push(await ceiling(pages));
    for (const [name, run] of Object.entries(runs)) results.get(name as Name)!.push(await run());
  }
  const ceil = { ms: median(ceilings.map((c) => c.ms)), retained: median(ceilings.map((c) => c.retained)) };
  const med = (name: Name) => {
    const xs = results.get(name)!;
    for (const x of xs) if (x.objects !== pods) throw new Error(`${name} held ${x.objects} of ${pods}`);
    return { ms: median(xs.map((x) => x.ms)), retained: median(xs.map((x) => x.retained)), peak: Math.max(...xs.map((x) => x.peak)) };
  };
  console.log(
    `initial sync of ${pods} Pods: ${(wire / MiB).toFixed(1)} MiB in LIST pages of 500 (${(wire / pods).toFixed(0)} B/Pod on the wire); median of ${ROUNDS}`,
  );
  console.log(
    `  JSON.parse ceiling over the LIST pages (the denominator of every ratio below)  ${ceil.ms.toFixed(0)} ms  retained ${(ceil.retained / MiB).toFixed(1)} MiB (${(ceil.retained / pods).toFixed(0)} B/Pod)`,
  );
  const rows = (Object.keys(runs) as Name[]).map((name) => ({ name, ...med(name) }));
  for (const r of rows) {
    console.log(
      `  ${r.name.padEnd(44)} ${r.ms.toFixed(0)} ms (${(r.ms / ceil.ms).toFixed(2)}x ceiling)  retained ${(r.retained / MiB).toFixed(1)} MiB ` +
        `(${(r.retained / pods).toFixed(0)} B/Pod, ${(r.retained / wire).toFixed(2)}x wire)  peak ${(r.peak / MiB).toFixed(1)} MiB (${(r.peak / r.retained).toFixed(2)}x settled)`,
    );
  }
  const by = (n: Name) => rows.find((r) => r.name === n)!;
  const ours = by('converge, managedFields dropped, LIST');
  const oursAll = by('converge, all fields, LIST');
  const oursWl = by('converge, managedFields dropped, watch-list');
  const theirs = by('client-node, LIST');
  const headlines: Headline[] = [
    { label: 'sync time / ceiling, all fields, LIST', value: oursAll.ms / ceil.ms, goal: '<= 1.5', met: oursAll.ms / ceil.ms <= 1.5 },
    { label: 'sync time / ceiling, managedFields dropped, LIST', value: ours.ms / ceil.ms, goal: '<= 1.5', met: ours.ms / ceil.ms <= 1.5 },
    {
      label: 'sync time / ceiling, managedFields dropped, watch-list',
      value: oursWl.ms / ceil.ms,
      goal: '<= 1.5',
      met: oursWl.ms / ceil.ms <= 1.5,
    },
    {
      label: 'sync peak heap / settled heap (LIST, worst round)',
      value: ours.peak / ours.retained,
      goal: '<= 2',
      met: ours.peak / ours.retained <= 2,
    },
    {
      label: 'sync peak heap / settled heap (watch-list, worst round)',
      value: oursWl.peak / oursWl.retained,
      goal: '<= 2',
      met: oursWl.peak / oursWl.retained <= 2,
    },
    {
      label: 'retained heap, converge all fields / client-node',
      value: oursAll.retained / theirs.retained,
      goal: '<= 0.45',
      met: oursAll.retained / theirs.retained <= 0.45,
    },
    {
      label: 'retained heap, converge (manager default) / client-node',
      value: ours.retained / theirs.retained,
      goal: '<= 0.45',
      met: ours.retained / theirs.retained <= 0.45,
    },
  ];
  writeResult({
    name: 'sync-pods',
    command: 'node scripts/run-bench.mjs sync/pods',
    figures: {
      pods,
      wireBytesPerPod: Math.round(wire / pods),
      ceilingMs: Math.round(ceil.ms),
      ceilingBytesPerPod: Math.round(ceil.retained / pods),
      ...Object.fromEntries(
        rows.flatMap((r) => [
          [`${r.name}: ms`, Math.round(r.ms)],
          [`${r.name}: bytes/Pod`, Math.round(r.retained / pods)],
          [`${r.name}: retained / wire`, Number((r.retained / wire).toFixed(2))],
          [`${r.name}: peak / settled`, Number((r.peak / r.retained).toFixed(2))],
        ]),
      ),
    },
    charts: [
      {
        title: `Initial sync of ${pods} realistic Pods (ms, lower is better)`,
        unit: 'ms',
        bars: [{ label: 'JSON.parse ceiling', value: ceil.ms }, ...rows.map((r) => ({ label: r.name, value: r.ms }))],
        mark: { label: 'goal 1.5x ceiling', value: 1.5 * ceil.ms },
      },
      {
        title: `Retained heap per Pod (bytes, lower is better; ${(wire / pods).toFixed(0)} B/Pod on the wire)`,
        unit: 'B/Pod',
        bars: [
          { label: 'JSON.parse result', value: ceil.retained / pods },
          ...rows.map((r) => ({ label: r.name, value: r.retained / pods })),
        ],
        mark: { label: 'goal 0.45x client-node', value: (0.45 * theirs.retained) / pods },
      },
    ],
    headlines,
  });
  printHeadlines(headlines);
} finally {
  converge.close();
  child.disconnect();
}
