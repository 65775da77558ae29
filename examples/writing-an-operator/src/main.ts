/**
 * The operator as a process: the image's entry (Dockerfile) and `npm start`. One manager with every
 * controller, the leader-election Lease in the operator's own namespace (so only one replica
 * reconciles), `/healthz` and `/readyz`, `/metrics`, and a clean stop on SIGTERM or SIGINT that
 * releases the Lease, so a successor takes over at once.
 *
 *   node dist/src/main.js --leader-elect=true --metrics-bind-address=:8080 --health-probe-bind-address=:8081
 *
 * Configuration: KUBECONFIG, else the pod's service account, else ~/.kube/config; POD_NAMESPACE is
 * where the Lease lives (the Deployment sets it to its own namespace).
 */
import { parseArgs } from 'node:util';
import { getConfig } from 'kube-converge/client';
import { createManager, installSignalHandlers, ping } from 'kube-converge/manager';
import { InvalidOptionError, jsonLogger } from 'kube-converge/meta';
import { setupControllers } from './controllers/index.js';

const { values } = parseArgs({
  options: {
    // Off by default for `npm start` on a laptop; the Deployment turns it on.
    'leader-elect': { type: 'string', default: 'false' },
    'metrics-bind-address': { type: 'string', default: ':8080' },
    'health-probe-bind-address': { type: 'string', default: ':8081' },
  },
  strict: true,
});

const leaderElect = values['leader-elect'];
if (leaderElect !== 'true' && leaderElect !== 'false') {
  throw new InvalidOptionError('--leader-elect', `must be true or false, got ${JSON.stringify(leaderElect)}`);
}

const logger = jsonLogger();
const signals = installSignalHandlers();
try {
  const mgr = await createManager({
    config: getConfig(),
    logger,
    metricsBindAddress: values['metrics-bind-address'],
    healthProbeBindAddress: values['health-probe-bind-address'],
    ...(leaderElect === 'true'
      ? {
          leaderElection: {
            id: 'apikey-operator-leader',
            namespace: process.env['POD_NAMESPACE'] ?? 'apikey-operator-system',
            releaseOnCancel: true,
          },
        }
      : {}),
  });
  mgr.addHealthzCheck('ping', ping);
  setupControllers(mgr);
  await mgr.start(signals.signal);
} catch (err) {
  logger.error({ err }, 'operator stopped with an error');
  process.exitCode = 1;
} finally {
  signals.remove();
}
