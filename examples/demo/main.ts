/**
 * `npm start`: the whole system on one laptop, no cluster. It starts the embedded API server, writes
 * a kubeconfig kubectl can use, installs the CRDs, runs both operators (and the deployment simulator
 * that stands in for Pods) in one manager with metrics and health endpoints and the live dashboard
 * page (its URL printed first), applies sample objects, and prints a live view of every WebApp and route converging — then keeps running until Ctrl-C, so
 * you can poke at it with kubectl and watch the operators react.
 *
 * The kubeconfig goes to a fresh folder per run (two demos never overwrite each other's), removed again
 * when the process exits, however it exits short of SIGKILL.
 *
 * Environment: `PORT` (default 8090; 0 or a taken port means a free one), `DEMO_STEP_MS` (simulated
 * time for one more replica to become ready, default 400). A value that is not a whole number in range
 * is refused with one line on stderr and exit code 2, before anything starts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigMapResource, jsonLogger } from 'kube-converge/meta';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import { createClient, loadKubeConfig } from 'kube-converge/client';
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

class EnvError extends Error {}

/** The whole number in `process.env[name]`, or `fallback` when unset; anything else is an `EnvError`. */
function envInteger(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max)
    throw new EnvError(`${name} must be a whole number from 0 to ${max}, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

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
  const port = envInteger('PORT', 8090, 65535);
  const stepMs = envInteger('DEMO_STEP_MS', 400, 60_000);
  const { signal, remove } = installSignalHandlers();
  // Synchronous, so it also runs on process.exit (a second Ctrl-C) and after a crash.
  const kubeconfigDir = mkdtempSync(join(tmpdir(), 'converge-demo-'));
  process.on('exit', () => rmSync(kubeconfigDir, { recursive: true, force: true }));
  const kubeconfigPath = join(kubeconfigDir, 'kubeconfig');

  const server = await startServer(port);
  await server.writeKubeconfig(kubeconfigPath);
  // Everything talks to the server the way kubectl does: through the kubeconfig it wrote.
  const config = { ...loadKubeConfig({ path: kubeconfigPath }), qps: -1 };
  const client = createClient({ config });
  await installCrds({
    client,
    crds: [
      join(here, '../webapp/crd.yaml'),
      join(here, '../application-route/networking.converge.dev_applicationroutes.yaml'),
      join(here, '../application-route/httproute-crd.yaml'),
    ],
  });

  const mgr = await createManager({
    config,
    metricsBindAddress: '127.0.0.1:0',
    healthProbeBindAddress: '127.0.0.1:0',
    dashboard: true,
    logger: jsonLogger({ level: 'warn' }),
  });
  setupWebAppController(mgr, { externalSystem: new ExternalSystem() });
  setupApplicationRouteController(mgr);
  setupDeploymentSimulator(mgr, { stepMs });
  await startLiveView(mgr);
  const running = mgr.start(signal);
  const endpoints = await mgr.listening();

  say(`Converge demo: dashboard ${endpoints.healthProbe}/dashboard   (open it in a browser)`);
  say(`  API server ${server.url}`);
  say(`  metrics  ${endpoints.metrics}/metrics`);
  say(`  health   ${endpoints.healthProbe}/healthz  ${endpoints.healthProbe}/readyz`);
  say(`  kubeconfig ${kubeconfigPath}  (removed when the demo exits)`);
  say();
  say('Try, in another terminal:');
  say(`  export KUBECONFIG=${kubeconfigPath}`);
  say('  kubectl get webapps -w');
  say('  kubectl get deployments,services,applicationroutes,httproutes');
  say(`  kubectl patch webapp shop --type merge -p '{"spec":{"replicas":5}}'`);
  say("  kubectl edit configmap shop-config          # rolls shop's pods (config hash)");
  say('  kubectl delete deployment shop              # the operator recreates it');
  say('  kubectl delete webapp blog                  # the finalizer cleans up first');
  say(`  curl ${endpoints.healthProbe}/debug/converge/platform.converge.dev/v1alpha1/webapps/default/shop   # why is it (not) converged?`);
  say(`  npx converge why webapp/shop --url ${endpoints.healthProbe}   # the same, for a person`);
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
  if (err instanceof EnvError) {
    process.stderr.write(`demo: ${err.message}\n`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(`demo failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
