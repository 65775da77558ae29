/**
 * `npm start`: the whole system on one laptop, no cluster. It starts the embedded API server, writes
 * a kubeconfig kubectl can use, installs the CRDs, runs both operators (and the deployment simulator
 * that stands in for Pods) in one manager with metrics and health endpoints, applies sample objects,
 * and prints a live view of every WebApp and route converging — then keeps running until Ctrl-C, so
 * you can poke at it with kubectl and watch the operators react.
 *
 * Environment: `PORT` (default 8090; 0 or a taken port means a free one), `DEMO_KUBECONFIG` (default
 * `<tmpdir>/converge-demo/kubeconfig`), `DEMO_STEP_MS` (simulated time for one more replica to become
 * ready, default 400).
 */
import { mkdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigMapResource, jsonLogger } from 'kube-converge/meta';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import { createClient } from 'kube-converge/client';
import { createManager, installSignalHandlers } from 'kube-converge/manager';
import { installCrds } from 'kube-converge/testing';
import { setupWebAppController } from '../webapp/controller.js';
import { setupDeploymentSimulator } from '../webapp/deployment-simulator.js';
import { ExternalSystem } from '../webapp/external-system.js';
import { WebApp } from '../webapp/types.js';
import { setupApplicationRouteController } from '../application-route/controller.js';
import { ApplicationRoute } from '../application-route/types.js';
import { startLiveView } from './live-view.js';
import { shopConfig, storefront, webApps } from './samples.js';

/** Pause between the route and the WebApps, long enough to see the route wait for its Service. */
const APPLY_DELAY_MS = 1000;
const here = dirname(fileURLToPath(import.meta.url));
const say = (line = ''): void => void process.stdout.write(`${line}\n`);

/** The API server on `port`, or on a free port when that one is taken. */
// Garbage collection on, as in a cluster: deleting a WebApp takes its Deployment and Service along.
async function startServer(port: number): Promise<RunningApiServer> {
  try {
    return await startApiServer({ port, garbageCollection: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    say(`port ${port} is taken; using a free port instead`);
    return startApiServer({ port: 0, garbageCollection: true });
  }
}

async function main(): Promise<void> {
  const { signal, remove } = installSignalHandlers();
  const port = Number(process.env.PORT ?? 8090);
  const kubeconfigPath = process.env.DEMO_KUBECONFIG ?? join(tmpdir(), 'converge-demo', 'kubeconfig');
  const stepMs = Number(process.env.DEMO_STEP_MS ?? 400);

  const server = await startServer(port);
  await mkdir(dirname(kubeconfigPath), { recursive: true });
  await server.writeKubeconfig(kubeconfigPath);
  const client = createClient({ config: { server: server.url, qps: -1 } });
  await installCrds({
    client,
    crds: [join(here, '../webapp/crd.yaml'), join(here, '../application-route/crd.yaml'), join(here, '../application-route/httproute-crd.yaml')],
  });

  const mgr = await createManager({
    config: { server: server.url, qps: -1 },
    metricsBindAddress: '127.0.0.1:0',
    healthProbeBindAddress: '127.0.0.1:0',
    logger: jsonLogger({ level: 'warn' }),
  });
  setupWebAppController(mgr, { externalSystem: new ExternalSystem() });
  setupApplicationRouteController(mgr);
  setupDeploymentSimulator(mgr, { stepMs });
  await startLiveView(mgr);
  const running = mgr.start(signal);
  const endpoints = await mgr.listening();

  const k = `kubectl --kubeconfig ${kubeconfigPath}`;
  say(`Converge demo: API server ${server.url}`);
  say(`  metrics  ${endpoints.metrics}/metrics`);
  say(`  health   ${endpoints.healthProbe}/healthz  ${endpoints.healthProbe}/readyz`);
  say(`  kubeconfig ${kubeconfigPath}`);
  say();
  say('Try, in another terminal:');
  say(`  ${k} get webapps -w`);
  say(`  ${k} get deployments,services,applicationroutes,httproutes`);
  say(`  ${k} patch webapp shop --type merge -p '{"spec":{"replicas":5}}'`);
  say(`  ${k} edit configmap shop-config          # rolls shop's pods (config hash)`);
  say(`  ${k} delete deployment shop              # the operator recreates it`);
  say(`  ${k} delete webapp blog                  # the finalizer cleans up first`);
  say(`  curl ${endpoints.healthProbe}/debug/converge/platform.converge.dev/v1alpha1/webapps/default/shop   # why is it (not) converged?`);
  say();
  say('Live view (Ctrl-C to stop):');

  // The route first: its backend Service appears only once the WebApp operator has made it, so the
  // route waits (DependenciesReady=False) until the WebApps arrive a moment later.
  await client.create(ApplicationRoute, storefront);
  const paused = await sleep(APPLY_DELAY_MS, 'elapsed', { signal }).catch(() => 'interrupted by Ctrl-C');
  if (paused === 'elapsed') {
    await client.create(ConfigMapResource, shopConfig);
    for (const app of webApps) await client.create(WebApp, app);
  }

  try {
    await running;
    say(`stopped cleanly (${String((signal.reason as Error | undefined)?.message ?? 'done')})`);
  } finally {
    remove();
    client.close();
    await server.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`demo failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
