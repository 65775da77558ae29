// Imports the benchmarks' replayed watch (over the client's private WatchDecoder): the gate measures the real decoder's allocations.
/**
 * Child process of memory-gate.test.ts, run with `--expose-gc`: measures the informer's deterministic
 * memory figures and prints them as one JSON line. No figure depends on time or on the machine's load:
 *
 * - retained bytes per cached object: the heap (code spaces aside) after a full GC with N objects
 *   listed into an informer, minus the heap before it, over N (ConfigMaps with a managedFields entry; realistic Pods as a
 *   cluster returns them, with managedFields kept or dropped as the manager does);
 * - bytes allocated per watch event: what the heap grew by plus what every GC in between freed
 *   (`v8.GCProfiler` reports the heap before and after each), for a run with 2E MODIFIED events minus a
 *   run with E, over E, so the list, the informer's setup and the JIT's warm-up cancel out. Chunks of
 *   64 KiB go through the real WatchDecoder, as a socket would hand them over.
 *
 * Each figure is the median of ROUNDS runs: now and then one run reads a megabyte or two off in either
 * direction (a collection finishing what an earlier run left), and the least of three runs, the
 * earlier rule, picked such a run in 7 of 14 probes, even a negative figure. Invariant: the same code
 * gives the same figures within a few percent on any machine and load; only the code under test
 * moves them.
 */
import { readFileSync } from 'node:fs';
import { GCProfiler, getHeapSpaceStatistics } from 'node:v8';
import { createSharedIndexInformer, type ListerWatcher } from 'kube-converge/cache';
import { replayedWatch } from '../../bench/replayed-watch.js';
import { ConfigMapResource, PodResource, type KubeObject, type ResourceDescriptor } from 'kube-converge/meta';

const ROUNDS = 5;
const LISTED = 1_000;
const EVENTS = 1_000;
const OBJECTS = 200;
const CHUNK = 65_536;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('memory-gate-probe needs node --expose-gc');
/**
 * The heap in use after two full GCs, without the code spaces: machine code compiled while a figure is
 * measured (the optimizing compiler finishes in the background, at times that depend on the load) is
 * not the informer's memory, and left in it made one process in four read 15 % high.
 */
const used = (): number => {
  let bytes = 0;
  for (const s of getHeapSpaceStatistics()) if (!s.space_name.startsWith('code')) bytes += s.space_used_size;
  return bytes;
};
const heapUsed = (): number => {
  gc();
  gc();
  return used();
};

const pod = readFileSync(new URL('./fixtures/realistic-pod.json', import.meta.url), 'utf8');

/** ConfigMap `i` at `rv` with eight 40-byte values and the managedFields entry a merge patch leaves. */
function configMap(i: number, rv: number): KubeObject {
  const data = Object.fromEntries(
    Array.from({ length: 8 }, (_, k) => [`key_${k}.yaml`, `setting_${k}: ${(i * 8 + k + rv).toString(16).padStart(24, '0')}\n`]),
  );
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      namespace: 'gate',
      name: `cfg-${i}`,
      labels: { app: 'gate', shard: String(i % 16) },
      uid: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      creationTimestamp: '2026-01-02T03:04:05Z',
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-01-02T03:04:05Z',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:data': Object.fromEntries(Object.keys(data).map((k) => [`f:${k}`, {}])),
            'f:metadata': { 'f:labels': { 'f:app': {}, 'f:shard': {} } },
          },
        },
      ],
      resourceVersion: String(rv),
    },
    data,
  };
}

/** Pod `i` at `rv`: the fixture (real API-server output) with its own name, uid and resourceVersion. */
function realisticPod(i: number, rv: number): KubeObject {
  const p = JSON.parse(pod) as KubeObject & { status: { podIP: string } };
  p.status.podIP = `10.1.${(i >> 8) & 255}.${i & 255}`;
  return {
    ...p,
    metadata: {
      ...p.metadata,
      name: `${p.metadata.name}-${i}`,
      uid: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      resourceVersion: String(rv),
    },
  };
}

type Make = (i: number, rv: number) => KubeObject;

interface Run {
  resource: ResourceDescriptor<KubeObject>;
  make: Make;
  listed: number;
  events: number;
  freeze: boolean;
  transform?: (o: KubeObject) => KubeObject;
}

/** The list body and watch chunks of a run, made before anything is measured. */
function record(r: Run): { listBody: string; chunks: Buffer[] } {
  const listBody = JSON.stringify({
    metadata: { resourceVersion: String(r.listed) },
    items: Array.from({ length: r.listed }, (_, i) => r.make(i, i + 1)),
  });
  const lines = Array.from({ length: r.events }, (_, u) =>
    JSON.stringify({ type: 'MODIFIED', object: r.make(u % OBJECTS, r.listed + 1 + u) }),
  );
  const stream = Buffer.from(lines.length === 0 ? '' : lines.join('\n') + '\n');
  const chunks: Buffer[] = [];
  for (let o = 0; o < stream.length; o += CHUNK) chunks.push(Buffer.from(stream.subarray(o, o + CHUNK)));
  return { listBody, chunks };
}

/** Runs an informer over the recorded list and events until it saw them all; returns it still holding its store. */
async function runInformer(r: Run, rec: { listBody: string; chunks: Buffer[] }): Promise<{ stop: () => Promise<void>; size: number }> {
  const listerWatcher: ListerWatcher<KubeObject> = {
    description: 'gate',
    resource: r.resource,
    list: () => Promise.resolve(JSON.parse(rec.listBody) as never),
    watch: () => Promise.resolve(replayedWatch(rec.chunks)),
  };
  const informer = createSharedIndexInformer<KubeObject>({
    listerWatcher,
    freeze: r.freeze,
    ...(r.transform ? { transform: r.transform } : {}),
  });
  let seen = 0;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  informer.addEventHandler({ onUpdate: () => void (++seen === r.events && done()) });
  const ac = new AbortController();
  const run = informer.run(ac.signal);
  await informer.waitForSync();
  if (r.events > 0) await all;
  return {
    size: informer.getIndexer().list().length,
    stop: async () => {
      ac.abort();
      await run;
    },
  };
}

/** Retained heap per stored object after a full GC: with N objects listed into an informer, minus before it. */
async function retainedPerObject(r: Run): Promise<number> {
  const rec = record(r);
  const before = heapUsed();
  const informer = await runInformer(r, rec);
  const after = heapUsed();
  if (informer.size !== r.listed) throw new Error(`stored ${informer.size} objects, want ${r.listed}`);
  await informer.stop();
  return (after - before) / r.listed;
}

/** Bytes allocated (grown plus freed by GCs) while an informer lists and takes `r.events` events. */
async function allocated(r: Run): Promise<number> {
  const rec = record(r);
  const profiler = new GCProfiler();
  const before = heapUsed();
  profiler.start();
  const informer = await runInformer(r, rec);
  const end = used();
  const stats = profiler.stop()?.statistics ?? [];
  await informer.stop();
  let freed = 0;
  for (const s of stats) freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
  return end - before + freed;
}

async function allocatedPerEvent(r: Omit<Run, 'events'>): Promise<number> {
  const once = await allocated({ ...r, events: EVENTS });
  const twice = await allocated({ ...r, events: 2 * EVENTS });
  return (twice - once) / EVENTS;
}

const stripManagedFields = (o: KubeObject): KubeObject => {
  delete o.metadata.managedFields;
  return o;
};

const figures = {
  configMapRetainedBytes: () =>
    retainedPerObject({ resource: ConfigMapResource, make: configMap, listed: LISTED, events: 0, freeze: false }),
  configMapRetainedBytesFrozen: () =>
    retainedPerObject({ resource: ConfigMapResource, make: configMap, listed: LISTED, events: 0, freeze: true }),
  podRetainedBytes: () => retainedPerObject({ resource: PodResource, make: realisticPod, listed: LISTED, events: 0, freeze: false }),
  podRetainedBytesManagedFieldsDropped: () =>
    retainedPerObject({
      resource: PodResource,
      make: realisticPod,
      listed: LISTED,
      events: 0,
      freeze: false,
      transform: stripManagedFields,
    }),
  configMapEventAllocatedBytes: () => allocatedPerEvent({ resource: ConfigMapResource, make: configMap, listed: OBJECTS, freeze: false }),
  podEventAllocatedBytes: () => allocatedPerEvent({ resource: PodResource, make: realisticPod, listed: OBJECTS, freeze: false }),
};

const only = process.argv.slice(2);
const out: Record<string, number> = {};
for (const [name, measure] of Object.entries(figures)) {
  if (only.length > 0 && !only.includes(name)) continue;
  await measure(); // warm-up: compiles the paths measured next
  const runs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await measure());
  out[name] = Math.round(runs.sort((a, b) => a - b)[ROUNDS >> 1]!);
}
process.stdout.write(JSON.stringify(out) + '\n');
