/**
 * The WebApp operator as a process, the way it runs in a cluster: one manager with leader election
 * on a Lease, `/metrics`, `/healthz` and `/readyz`, and the WebApp controller — and nothing else (the
 * deployment simulator is test and demo support and never runs here: a cluster has real kubelets).
 * It stops cleanly on SIGTERM (what Kubernetes sends) or SIGINT, releasing the Lease so a successor
 * takes over at once.
 *
 * Configuration (environment): controller-runtime's order — `KUBECONFIG`, else the pod's service
 * account, else `~/.kube/config`; `POD_NAMESPACE` (the Lease's namespace, default `default`);
 * `METRICS_BIND_ADDRESS` (default `:8080`), `HEALTH_PROBE_BIND_ADDRESS` (default `:8081`);
 * `LEADER_ELECT` (default `true`).
 */
import { jsonLogger } from 'kube-converge/meta';
import { getConfig } from 'kube-converge/client';
import { createManager, installSignalHandlers, ping } from 'kube-converge/manager';
import { setupWebAppController } from './controller.js';
import { ExternalSystem } from './external-system.js';

async function main(): Promise<void> {
  const logger = jsonLogger({ level: 'info' }).child({ operator: 'webapp' });
  const { signal, remove } = installSignalHandlers();
  const leaderElect = (process.env.LEADER_ELECT ?? 'true') === 'true';
  const mgr = await createManager({
    config: getConfig(),
    logger,
    metricsBindAddress: process.env.METRICS_BIND_ADDRESS ?? ':8080',
    healthProbeBindAddress: process.env.HEALTH_PROBE_BIND_ADDRESS ?? ':8081',
    ...(leaderElect
      ? {
          leaderElection: {
            id: 'webapp-operator.platform.converge.dev',
            namespace: process.env.POD_NAMESPACE ?? 'default',
            releaseOnCancel: true,
          },
        }
      : {}),
  });
  mgr.addHealthzCheck('ping', ping);
  // The real external system would be a client of a DNS or CDN API; this example keeps it in memory.
  setupWebAppController(mgr, { externalSystem: new ExternalSystem() });
  const running = mgr.start(signal);
  logger.info(await mgr.listening(), 'operator endpoints');
  try {
    await running;
  } finally {
    remove();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`webapp operator failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
