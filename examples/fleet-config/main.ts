/**
 * The FleetConfig operator's entry point: a manager on the hub (from the kubeconfig, with leader
 * election in `POD_NAMESPACE`), a fleet whose members are the kubeconfig Secrets labelled
 * `multicluster.converge.dev/kubeconfig=true` in `FLEET_NAMESPACE` (default `converge-fleet`), and
 * the FleetConfig controller. SIGTERM and SIGINT stop it gracefully.
 */
import { createManager, installSignalHandlers } from 'kube-converge/manager';
import { loadKubeConfig, createClient } from 'kube-converge/client';
import { Fleet, kubeconfigSecretsProvider } from 'kube-converge/multicluster';
import { jsonLogger } from 'kube-converge/meta';
import { addFleetConfigController } from './controller.js';

const config = loadKubeConfig();
const logger = jsonLogger({ level: 'info' });
const namespace = process.env['FLEET_NAMESPACE'] ?? 'converge-fleet';
const local = await createManager({
  config,
  logger,
  leaderElection: { id: 'fleet-config-operator', ...(process.env['POD_NAMESPACE'] ? { namespace: process.env['POD_NAMESPACE'] } : {}) },
});
const hub = createClient({ config });
const fleet = new Fleet({ local, provider: kubeconfigSecretsProvider({ client: hub, namespace }) });
addFleetConfigController(fleet);
const signals = installSignalHandlers();
try {
  await local.start(signals.signal);
} finally {
  hub.close();
}
