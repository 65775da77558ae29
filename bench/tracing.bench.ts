// What tracing costs an operator process, at about 1 000 reconciles a second: a manager with one
// ConfigMap controller whose reconciles each make one GET over HTTP, so each traced reconcile has an
// event span, a reconcile span and a request span. The watch side is in memory (the cache tests'
// fake client, so the load is paced exactly: 1 000 changes a second over 3 000 objects); the GETs go
// to a bare loopback HTTP server in a child process, so this process's CPU is the operator's alone.
// The figure is this process's CPU time (user + system) per reconcile, the median of rounds: first
// with no SDK registered, then with the OpenTelemetry SDK on (every span sampled, a batch processor,
// an exporter that drops the batches: the SDK's own cost without a network, and the AsyncLocalStorage
// context manager, as NodeSDK sets up). The SDK cannot be taken off again (the API's tracers keep
// the SDK's once they found it), so the "on" rounds come after the "off" ones, after a warm-up; the
// SDK runs first without a context manager (request spans are not parented then), to tell the SDK's
// share from AsyncLocalStorage's. It
// also prints what the tracing hooks cost with no SDK, per reconcile. Prints the on/off ratio last
// (goal: at most 1.03).
// Run: node scripts/run-bench.mjs tracing
import { fork } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createClient } from 'kube-converge/client';
import { controllerManagedBy } from 'kube-converge/controller';
import { createManager } from 'kube-converge/manager';
import { ConfigMapResource, noopLogger, realClock, type ObjectOf } from 'kube-converge/meta';
import { FakeClient } from '../test/cache/fake-client.js';
import { ReconcileTracing, traceEvent } from '../src/controller/tracing.js';
import { traceRequest } from '../src/client/tracing.js';

/** Enough objects that the paced patches seldom hit a key still queued: about one reconcile per patch. */
const OBJECTS = 3000;
const RATE_PER_S = 1000;
const ROUND_MS = 3000;
const ROUNDS = 5;

const child = fork(new URL('./apiserver-server.ts', import.meta.url), ['bare'], { execArgv: ['--conditions=source', '--import', 'tsx'] });
const { url } = await new Promise<{ url: string }>((resolve) => child.once('message', (m) => resolve(m as never)));
const rest = createClient({ server: url, qps: -1 });
const watched = new FakeClient();
for (let i = 0; i < OBJECTS; i++) {
  const cm: ObjectOf<typeof ConfigMapResource> = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, namespace: 'default' },
    data: { n: '0' },
  };
  watched.upsert(cm);
  await rest.create(ConfigMapResource, cm);
}

let reconciles = 0;
const mgr = await createManager({ client: watched, logger: noopLogger });
controllerManagedBy(mgr)
  .for(ConfigMapResource)
  .withOptions({ maxConcurrentReconciles: 4 })
  .complete(async (req) => {
    await rest.get(ConfigMapResource, req);
    reconciles++;
  });
const running = mgr.start();
await mgr.elected();

let changes = 0;
let roundsStart = 0;

/** Changes objects at `RATE_PER_S` for `ROUND_MS` (a batch every 10 ms), lets the queue drain; CPU µs per reconcile. */
async function round(): Promise<{ cpuPerReconcileUs: number; perSecond: number }> {
  const before = reconciles;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let elapsed = 0; elapsed < ROUND_MS; elapsed = performance.now() - t0) {
    const due = Math.floor((elapsed / 1000) * RATE_PER_S);
    for (; changes - roundsStart < due; changes++) {
      const name = `cm-${changes % OBJECTS}`;
      watched.upsert({ ...watched.objects.get(`default/${name}`)!, data: { n: String(changes) } });
    }
    await sleep(10);
  }
  roundsStart = changes;
  await sleep(300); // the last events reach the controller and its queue drains
  const cpu = process.cpuUsage(cpu0);
  const done = reconciles - before;
  return { cpuPerReconcileUs: (cpu.user + cpu.system) / done, perSecond: (done * 1000) / (performance.now() - t0) };
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function rounds(label: string): Promise<number> {
  const cpu: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = await round();
    cpu.push(r.cpuPerReconcileUs);
    console.log(
      `  ${label} round ${i + 1}: ${r.perSecond.toFixed(0)} reconciles/s, ${r.cpuPerReconcileUs.toFixed(1)} µs CPU per reconcile`,
    );
  }
  return median(cpu);
}

/** The no-SDK hooks one traced reconcile passes through: an event, the queue tap, the reconcile span, one request span. */
async function hooksWithoutSdkNs(): Promise<number> {
  const tracing = new ReconcileTracing({ controller: 'bench', clock: realClock });
  const obj = { metadata: { name: 'x', namespace: 'default', resourceVersion: '1' } };
  const server = new URL(url);
  const answer = Promise.resolve({ statusCode: 200 });
  const calls = 200_000;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    traceEvent('ConfigMap', 'MODIFIED', obj, () => {});
    const span = tracing.start({ namespace: 'default', name: 'x' }, 'id');
    await span.run(() => traceRequest(server, 'GET', '/api/v1/namespaces/default/configmaps/x', () => answer));
    span.end({ ok: true, result: {} });
  }
  return Number(process.hrtime.bigint() - t0) / calls;
}

await round(); // warm-up
const hooksNs = await hooksWithoutSdkNs();
const off = await rounds('no SDK  ');
console.log(
  `no SDK: the tracing hooks cost ${hooksNs.toFixed(0)} ns per reconcile, ${((hooksNs / 1000 / off) * 100).toFixed(2)}% of a reconcile's ${off.toFixed(1)} µs CPU`,
);

const dropping: SpanExporter = {
  export: (_spans: ReadableSpan[], done) => done({ code: 0 }),
  shutdown: async () => {},
};
const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] });
trace.setGlobalTracerProvider(provider);
const sdkOnly = await rounds('SDK, no context manager');
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const on = await rounds('SDK + AsyncLocalStorage');

await mgr.shutdown();
await running;
rest.close();
await provider.shutdown();
child.disconnect();
console.log(
  `CPU per reconcile: no SDK ${off.toFixed(1)} µs, SDK without a context manager ${sdkOnly.toFixed(1)} µs (${(sdkOnly / off).toFixed(3)}x; request spans are roots then), SDK with AsyncLocalStorage ${on.toFixed(1)} µs`,
);
console.log(`ratio SDK on / no SDK (CPU per reconcile at ~${RATE_PER_S}/s): ${(on / off).toFixed(3)}`);
