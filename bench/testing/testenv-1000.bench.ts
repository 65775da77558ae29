// A thousand isolated test environments, one after another in one process: each `TestEnv.start()`
// with 3 CRDs (waiting until each is Established and in discovery), served over HTTPS with the admin
// token, then one request through its client, then `stop()`. Reports the total, p50 and p99 of one
// environment's life, and, as the baseline measured in the same run, the bare API server (plain
// HTTP, no CRDs, no TestEnv) started and stopped the same way. envtest (etcd + kube-apiserver
// binaries) takes seconds for one environment.
// Run: node scripts/run-bench.mjs testenv-1000   (goals: 1,000 in < 10 s, p50 <= 20 ms, p99 <= 50 ms).
// ENVS=n changes the count. Prints p50 TestEnv / p50 bare server last.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startApiServer } from 'kube-converge/apiserver';
import { ConfigMapResource } from 'kube-converge/meta';
import { TestEnv, type CustomResourceDefinition } from 'kube-converge/testing';
import { printHeadlines, writeResult, type Headline } from '../results.js';

const ENVS = Number(process.env['ENVS'] ?? 1000);
const BASELINE = 100;

function crd(kind: string): CustomResourceDefinition {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.bench.converge.dev` },
    spec: {
      group: 'bench.converge.dev',
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { image: { type: 'string' }, replicas: { type: 'integer', default: 1 } } },
                status: { type: 'object', properties: { ready: { type: 'boolean' } } },
              },
            },
          },
        },
      ],
    },
  };
}
const crds = ['WebApp', 'Database', 'Cache'].map(crd);

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** CPU time (user + system) of each environment's life: what it costs whatever else the machine runs. */
const cpu: number[] = [];

async function envCycle(): Promise<number> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const env = await TestEnv.start({ crds });
  await env.client.list(ConfigMapResource, { namespace: 'default' });
  await env.stop();
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
  return performance.now() - t0;
}

async function bareCycle(): Promise<number> {
  const t0 = performance.now();
  const s = await startApiServer({ port: 0, insecureHttp: true });
  await s.stop();
  return performance.now() - t0;
}

// Warm: the first start makes (or loads) the loopback certificate and loads the X.509 library.
const coldMs = await envCycle();
const bare: number[] = [];
for (let i = 0; i < BASELINE; i++) bare.push(await bareCycle());
cpu.length = 0;
const lives: number[] = [];
const t0 = performance.now();
for (let i = 0; i < ENVS; i++) lives.push(await envCycle());
const totalMs = performance.now() - t0;

const p50 = pct(lives, 0.5);
const p99 = pct(lives, 0.99);
const bareP50 = pct(bare, 0.5);
const cpuP50 = pct(cpu, 0.5);
const cpuMean = cpu.reduce((a, b) => a + b, 0) / cpu.length;
const load = os.loadavg()[0]!;
console.log(`first TestEnv in the process (cold): ${coldMs.toFixed(1)} ms`);
console.log(`${ENVS} TestEnvs (3 CRDs Established, HTTPS + token, one request, stop): ${(totalMs / 1000).toFixed(2)} s in total`);
console.log(`  one environment: p50 ${p50.toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  max ${Math.max(...lives).toFixed(1)} ms`);
console.log(
  `  CPU time of one environment (user + system): p50 ${cpuP50.toFixed(1)} ms  mean ${cpuMean.toFixed(1)} ms  (1-minute load ${load.toFixed(1)})`,
);
console.log(`bare API server start+stop (plain HTTP, no CRDs): p50 ${bareP50.toFixed(1)} ms (of ${BASELINE})`);
const perThousand = (totalMs / ENVS) * 1000;
const headlines: Headline[] = [
  { label: 'seconds per 1,000 TestEnvs', value: perThousand / 1000, goal: '< 10', met: perThousand < 10_000 },
  { label: 'p50 TestEnv start+stop (ms)', value: p50, goal: '<= 20', met: p50 <= 20 },
  { label: 'p99 TestEnv start+stop (ms)', value: p99, goal: '<= 50', met: p99 <= 50 },
  { label: 'p50 TestEnv / p50 bare API server', value: p50 / bareP50, goal: 'reported', met: true },
];
writeResult({
  name: 'testenv-1000',
  command: 'node scripts/run-bench.mjs testenv-1000',
  figures: {
    envs: ENVS,
    totalMs: Math.round(totalMs),
    p50Ms: Number(p50.toFixed(1)),
    p99Ms: Number(p99.toFixed(1)),
    bareP50Ms: Number(bareP50.toFixed(1)),
    cpuP50Ms: Number(cpuP50.toFixed(1)),
    cpuMeanMs: Number(cpuMean.toFixed(1)),
    coldMs: Math.round(coldMs),
  },
  charts: [
    {
      title: `One TestEnv's life: start with 3 CRDs, one request, stop (ms, lower is better)`,
      unit: 'ms',
      bars: [
        { label: 'bare API server p50 (baseline)', value: bareP50 },
        { label: 'TestEnv p50', value: p50 },
        { label: 'TestEnv p99', value: p99 },
        { label: 'TestEnv CPU time p50', value: cpuP50 },
      ],
      mark: { label: 'goal p99 50 ms', value: 50 },
    },
  ],
  headlines,
});
printHeadlines(headlines);
