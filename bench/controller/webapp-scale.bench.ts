// The WebApp operator (examples/webapp) at scale, against the in-process API server with the
// deployment simulator its tests use (one manager runs both, as in the tests): WEBAPPS WebApps (default
// 10,000, one replica each) created at once, then the time until every one reports Ready, reconciles
// and API writes per WebApp, and the peak heap of the whole process (server included). Then 200 rapid
// updates of one ConfigMap referenced by the first 1,000 WebApps, and the reconciles that caused.
// Writes are counted at the manager's client (faultInjectingClient's write hook, nothing injected),
// split into the operator's and the simulator's (which stands in for kube-controller-manager). No-op
// writes (accepted but changing nothing) are the writes that did not advance the server's
// resourceVersion, which the server bumps on every write that changes an object.
// Run: node scripts/run-bench.mjs webapp-scale   (goals: <= 3 reconciles and <= 3 writes per WebApp,
// 0 no-op writes; <= 2 reconciles per referencing WebApp for the ConfigMap burst).
// PROGRESS=1 prints how many are Ready, the reconciles and the writes so far, and error logs, while it waits.
// Prints writes per WebApp last.
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { ConfigMapResource, jsonLogger, noopLogger } from 'kube-converge/meta';
import { createClient } from 'kube-converge/client';
import type { Manager } from 'kube-converge/manager';
import { TestEnv, faultInjectingClient } from 'kube-converge/testing';
import { setupWebAppController } from '../../examples/webapp/controller.js';
import { setupDeploymentSimulator } from '../../examples/webapp/deployment-simulator.js';
import { ExternalSystem } from '../../examples/webapp/external-system.js';
import { WebApp } from '../../examples/webapp/types.js';
import { printHeadlines, writeResult, type Headline } from '../results.js';

const WEBAPPS = Number(process.env['WEBAPPS'] ?? 10_000);
const REFERENCING = Math.min(1000, WEBAPPS);
const CM_UPDATES = 200;
const ns = 'default';
const crd = fileURLToPath(new URL('../../examples/webapp/crd.yaml', import.meta.url));

const env = await TestEnv.start({ crds: [crd] });
const writes = { operator: new Map<string, number>(), simulator: 0 };
const client = faultInjectingClient(createClient({ config: env.restConfig() }), {
  beforeWrite: (w) => {
    // The simulator's only write is a Deployment status patch; the operator never writes one.
    if (w.resource.kind === 'Deployment' && w.subresource === 'status') writes.simulator++;
    else {
      const k = `${w.verb} ${w.resource.kind}${w.subresource ? `/${w.subresource}` : ''}`;
      writes.operator.set(k, (writes.operator.get(k) ?? 0) + 1);
    }
  },
});
const mgr: Manager = await env.newManager({ client, logger: process.env['PROGRESS'] ? jsonLogger({ level: 'error' }) : noopLogger });
setupWebAppController(mgr, { externalSystem: new ExternalSystem(), controller: { maxConcurrentReconciles: 8 } });
setupDeploymentSimulator(mgr, { stepMs: 5, maxConcurrentReconciles: 8 });
const running = mgr.start();
await mgr.elected();

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 50);
const reconciles = async (): Promise<number> => {
  const { values } = await mgr.metrics.registry.getSingleMetric('controller_runtime_reconcile_total')!.get();
  return values.filter((v) => v.labels['controller'] === 'webapp').reduce((s, v) => s + v.value, 0);
};
const serverRv = async (): Promise<number> => {
  const l = await env.client.list(ConfigMapResource, { namespace: 'kube-system', limit: 1 });
  return Number(l.metadata.resourceVersion);
};
const totalWrites = (): number => [...writes.operator.values()].reduce((s, n) => s + n, 0) + writes.simulator;
const allReady = (want: number): boolean => {
  const apps = mgr.client.list(WebApp, { namespace: ns });
  return (
    apps.length === want &&
    apps.every(
      (a) =>
        a.status?.observedGeneration === a.metadata.generation &&
        a.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true,
    )
  );
};
async function until(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!cond()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    if (process.env['PROGRESS']) {
      const ready = mgr.client
        .list(WebApp, { namespace: ns })
        .filter((a) => a.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      console.error(what, ready.length, await reconciles(), writes.simulator, JSON.stringify([...writes.operator]));
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

try {
  await env.client.create(ConfigMapResource, { metadata: { name: 'shared', namespace: ns }, data: { revision: '0' } });
  const rv0 = await serverRv();
  const t0 = performance.now();
  for (let i = 0; i < WEBAPPS; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, WEBAPPS - i) }, (_, k) =>
        env.client.create(WebApp, {
          apiVersion: WebApp.apiVersion,
          kind: WebApp.kind,
          metadata: { name: `app-${i + k}`, namespace: ns },
          spec: { image: 'shop:1', replicas: 1, ...(i + k < REFERENCING ? { configRef: 'shared' } : {}) },
        }),
      ),
    );
  }
  const createdMs = performance.now() - t0;
  await until(() => allReady(WEBAPPS), 30 * 60_000, 'every WebApp Ready');
  const readyMs = performance.now() - t0;
  // Let stragglers (requeues, the last status writes) finish before counting.
  let settledWrites = -1;
  while (settledWrites !== totalWrites()) {
    settledWrites = totalWrites();
    await new Promise((r) => setTimeout(r, 1000));
  }
  const recAfterCreate = await reconciles();
  const opWrites = new Map(writes.operator);
  const opWriteCount = [...opWrites.values()].reduce((s, n) => s + n, 0);
  const stateWrites = (await serverRv()) - rv0 - WEBAPPS; // the WebApp creates advanced it too
  const noOp = totalWrites() - stateWrites;
  const peakCreate = peak;

  // The ConfigMap burst.
  for (let i = 1; i <= CM_UPDATES; i++) {
    await env.client.patch(ConfigMapResource, { namespace: ns, name: 'shared' }, { data: { revision: String(i) } }, 'merge');
  }
  await until(() => allReady(WEBAPPS), 10 * 60_000, 'every WebApp Ready after the ConfigMap burst');
  settledWrites = -1;
  while (settledWrites !== totalWrites()) {
    settledWrites = totalWrites();
    await new Promise((r) => setTimeout(r, 1000));
  }
  const burstReconciles = (await reconciles()) - recAfterCreate;
  clearInterval(sampler);

  console.log(
    `${WEBAPPS} WebApps (1 replica each) created in ${(createdMs / 1000).toFixed(1)} s; all Ready after ${(readyMs / 1000).toFixed(1)} s`,
  );
  console.log(`  reconciles: ${recAfterCreate} (${(recAfterCreate / WEBAPPS).toFixed(2)} per WebApp)`);
  console.log(
    `  operator writes: ${opWriteCount} (${(opWriteCount / WEBAPPS).toFixed(2)} per WebApp): ${[...opWrites].map(([k, n]) => `${k} ${n}`).join(', ')}`,
  );
  console.log(
    `  simulator writes (Deployment status, creation and ConfigMap burst together): ${writes.simulator}; no-op writes (all): ${noOp}`,
  );
  console.log(`  peak heap (manager + in-process server): ${(peakCreate / 2 ** 20).toFixed(0)} MiB`);
  console.log(
    `${CM_UPDATES} updates of a ConfigMap referenced by ${REFERENCING} WebApps: ${burstReconciles} reconciles (${(burstReconciles / REFERENCING).toFixed(2)} per referencing WebApp)`,
  );
  const headlines: Headline[] = [
    { label: 'reconciles per WebApp', value: recAfterCreate / WEBAPPS, goal: '<= 3', met: recAfterCreate / WEBAPPS <= 3 },
    {
      label: 'reconciles per referencing WebApp, ConfigMap burst',
      value: burstReconciles / REFERENCING,
      goal: '<= 2',
      met: burstReconciles / REFERENCING <= 2,
    },
    { label: 'no-op writes', value: noOp, goal: '0', met: noOp === 0 },
    { label: 'operator writes per WebApp', value: opWriteCount / WEBAPPS, goal: '<= 3', met: opWriteCount / WEBAPPS <= 3 },
  ];
  writeResult({
    name: 'webapp-scale',
    command: 'node scripts/run-bench.mjs webapp-scale',
    figures: {
      webapps: WEBAPPS,
      createSeconds: Number((createdMs / 1000).toFixed(1)),
      allReadySeconds: Number((readyMs / 1000).toFixed(1)),
      reconciles: recAfterCreate,
      operatorWrites: opWriteCount,
      ...Object.fromEntries([...opWrites].map(([k, n]) => [`writes: ${k}`, n])),
      simulatorWrites: writes.simulator,
      noOpWrites: noOp,
      peakHeapMiB: Math.round(peakCreate / 2 ** 20),
      burstReconciles,
    },
    charts: [
      {
        title: `WebApp operator, ${WEBAPPS} WebApps: work per WebApp (lower is better)`,
        unit: 'per WebApp',
        bars: [
          { label: 'reconciles', value: recAfterCreate / WEBAPPS },
          ...[...opWrites].map(([k, n]) => ({ label: `writes: ${k}`, value: n / WEBAPPS })),
          { label: 'writes: operator total', value: opWriteCount / WEBAPPS },
          { label: `reconciles per ConfigMap burst (${CM_UPDATES} updates)`, value: burstReconciles / REFERENCING },
        ],
        mark: { label: 'goal 3', value: 3 },
      },
    ],
    headlines,
  });
  printHeadlines(headlines);
} finally {
  clearInterval(sampler);
  await mgr.shutdown();
  await running.catch(() => {});
  await env.stop();
}
