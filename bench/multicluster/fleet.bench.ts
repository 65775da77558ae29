// The fleet's figures, measured in one process:
//  1. TestFleet start with 100 members (each a real in-process API server behind its proxy, registered
//     in the hub), beside 100 bare startApiServer() calls as the baseline (goal: < 1 s);
//  2. 1,000 namespaces of the hub engaged as clusters (namespacesProvider): time to all engaged and heap
//     retained per idle engaged cluster after GC (goal: < 5 s);
//  3. a change to a FleetConfig in the hub reaching 100 members (examples/fleet-config's operator):
//     from the hub update to the last member holding the new data.
// Prints the ratio of the fleet start to the bare servers' last.
// Run: node scripts/run-bench.mjs multicluster
import { performance } from 'node:perf_hooks';
import { startApiServer } from 'kube-converge/apiserver';
import { ConfigMapResource, noopLogger } from 'kube-converge/meta';
import { Fleet, namespacesProvider } from 'kube-converge/multicluster';
import { TestFleet, eventually } from 'kube-converge/testing';
import { addFleetConfigController } from '../../examples/fleet-config/controller.js';
import { FleetConfig } from '../../examples/fleet-config/types.js';
import { printHeadlines, writeResult } from '../results.js';

const MEMBERS = 100;
const NAMESPACES = 1_000;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

// Warm-up: the first server of a process loads the certificate and compiles the server's modules.
await (await TestFleet.start({ members: 2 })).stop();

// 1. 100 bare servers, then a 100-member fleet.
let t0 = performance.now();
const bare = await Promise.all(Array.from({ length: MEMBERS }, () => startApiServer({ port: 0, logger: noopLogger })));
const bareMs = performance.now() - t0;
await Promise.all(bare.map((s) => s.stop()));
t0 = performance.now();
const fleet100 = await TestFleet.start({ members: MEMBERS, hubCrds: [FleetConfig.crd()] });
const fleetStartMs = performance.now() - t0;
console.log(
  `${MEMBERS} bare API servers started in ${bareMs.toFixed(0)} ms; a TestFleet of ${MEMBERS} members in ${fleetStartMs.toFixed(0)} ms`,
);

// 3. A hub change reaching every member.
const local = await fleet100.hub.newManager({ logger: noopLogger });
const fleet = new Fleet({ local, provider: fleet100.provider() });
addFleetConfigController(fleet);
const run = local.start();
await eventually(() => fleet.clusters().length === MEMBERS, { timeoutMs: 60_000 });
const nn = { namespace: 'default', name: 'shared' };
const holds = async (value: string): Promise<boolean> => {
  const all = await Promise.all(
    fleet100.members().map((m) =>
      m.env.client.get(ConfigMapResource, nn).then(
        (cm) => cm.data?.['v'] === value,
        () => false,
      ),
    ),
  );
  return all.every(Boolean);
};
await fleet100.hub.client.create(FleetConfig, { metadata: nn, spec: { configMap: { ...nn, data: { v: '1' } } } });
await eventually(() => holds('1'), { timeoutMs: 120_000, intervalMs: 20 });
const fc = await fleet100.hub.client.get(FleetConfig, nn);
t0 = performance.now();
await fleet100.hub.client.update(FleetConfig, { ...fc, spec: { ...fc.spec, configMap: { ...nn, data: { v: '2' } } } });
await eventually(() => holds('2'), { timeoutMs: 120_000, intervalMs: 20 });
const propagateMs = performance.now() - t0;
console.log(`a FleetConfig change reached all ${MEMBERS} members in ${propagateMs.toFixed(0)} ms`);
await local.shutdown();
await run;
await fleet100.stop();

// 2. 1,000 namespaces as clusters.
const hub = await TestFleet.start();
for (let i = 0; i < NAMESPACES; i++) {
  await hub.hub.server.handle({
    method: 'POST',
    path: '/api/v1/namespaces',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ metadata: { name: `tenant-${i}`, labels: { tenant: 'true' } } }),
  });
}
const nsLocal = await hub.hub.newManager({ logger: noopLogger });
gc();
const heapBefore = process.memoryUsage().heapUsed;
const nsFleet = new Fleet({ local: nsLocal, provider: namespacesProvider({ client: hub.hub.client, labelSelector: 'tenant=true' }) });
t0 = performance.now();
const nsRun = nsLocal.start();
await eventually(() => nsFleet.clusters().length === NAMESPACES, { timeoutMs: 120_000, intervalMs: 10 });
const engageMs = performance.now() - t0;
gc();
const perCluster = (process.memoryUsage().heapUsed - heapBefore) / NAMESPACES;
console.log(
  `${NAMESPACES} namespace clusters engaged in ${engageMs.toFixed(0)} ms; ${(perCluster / 1024).toFixed(1)} KiB of heap per idle cluster`,
);
await nsLocal.shutdown();
await nsRun;
await hub.stop();

const headlines = [
  { label: `TestFleet start, ${MEMBERS} members (ms)`, value: fleetStartMs, goal: '< 1000', met: fleetStartMs < 1000 },
  { label: `${NAMESPACES} namespace clusters engaged (ms)`, value: engageMs, goal: '< 5000', met: engageMs < 5000 },
  { label: `hub change reaches ${MEMBERS} members (ms)`, value: propagateMs },
  { label: `TestFleet start / ${MEMBERS} bare API servers`, value: fleetStartMs / bareMs },
];
writeResult({
  name: 'multicluster-fleet',
  command: 'node scripts/run-bench.mjs multicluster',
  figures: { bareMs, fleetStartMs, propagateMs, engageMs, heapBytesPerIdleCluster: Math.round(perCluster) },
  charts: [
    {
      title: 'A fleet in one process',
      unit: 'ms',
      bars: [
        { label: `${MEMBERS} bare API servers`, value: Math.round(bareMs) },
        { label: `TestFleet, ${MEMBERS} members`, value: Math.round(fleetStartMs) },
        { label: `${NAMESPACES} namespace clusters engaged`, value: Math.round(engageMs) },
        { label: `hub change → ${MEMBERS} members`, value: Math.round(propagateMs) },
      ],
    },
  ],
  headlines,
});
printHeadlines(headlines);
