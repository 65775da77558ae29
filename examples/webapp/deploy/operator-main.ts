/**
 * The WebApp operator as a process: the entry point of the container image (`../Dockerfile`) run by
 * the Deployment in `manifests/`. It reads the in-cluster config (or `KUBECONFIG`), takes the
 * leader-election Lease in its own namespace so that only one replica reconciles, serves `/metrics`
 * and `/healthz`/`/readyz`, and drains on SIGTERM within the pod's termination grace period.
 *
 *   node dist/examples/webapp/deploy/operator-main.js \
 *     --leader-elect=true --metrics-bind-address=:8080 --health-probe-bind-address=:8081
 *
 * The finalizer's external system is the in-process stand-in of the example (`../external-system.ts`):
 * a real operator would pass a client of its DNS/CDN/database API here.
 *
 * `createOperator` is the whole wiring, exported so that the RBAC test runs exactly what the
 * container runs; invariant: nothing else decides which API calls the deployed operator makes.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { getConfig, type Client, type RestConfig } from 'kube-converge/client';
import { createManager, installSignalHandlers, ping, type Manager } from 'kube-converge/manager';
import { InvalidOptionError, jsonLogger, type Logger } from 'kube-converge/meta';
import { setupWebAppController } from '../controller.js';
import { ExternalSystem } from '../external-system.js';

/** Name of the Lease the replicas compete for (in `leaderElectionNamespace`). */
export const LEADER_ELECTION_ID = 'webapp-operator.platform.converge.dev';
/** Where the manifests install the operator; the Deployment passes its namespace in `POD_NAMESPACE`. */
export const DEFAULT_NAMESPACE = 'webapp-system';

export interface OperatorOptions {
  config: RestConfig;
  leaderElect: boolean;
  /** Namespace of the leader-election Lease: the operator's own. */
  leaderElectionNamespace: string;
  /** `host:port` of `/metrics` (`:8080` in the pod), `'0'` for off. */
  metricsBindAddress: string;
  /** `host:port` of `/healthz` and `/readyz` (`:8081` in the pod), `'0'` for off. */
  healthProbeBindAddress: string;
  logger?: Logger;
  externalSystem?: ExternalSystem;
  /** A client used instead of one made from `config`: how a test injects faults (a lagging cache). */
  client?: Client;
}

/** The flags of the container's command line, controller-runtime's names. */
export function parseFlags(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Omit<OperatorOptions, 'config'> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      'leader-elect': { type: 'string', default: 'true' },
      'metrics-bind-address': { type: 'string', default: ':8080' },
      'health-probe-bind-address': { type: 'string', default: ':8081' },
    },
    strict: true,
  });
  const leaderElect = values['leader-elect'];
  if (leaderElect !== 'true' && leaderElect !== 'false') {
    throw new InvalidOptionError('--leader-elect', `must be true or false, got ${JSON.stringify(leaderElect)}`);
  }
  return {
    leaderElect: leaderElect === 'true',
    leaderElectionNamespace: env['POD_NAMESPACE'] ?? DEFAULT_NAMESPACE,
    metricsBindAddress: values['metrics-bind-address'],
    healthProbeBindAddress: values['health-probe-bind-address'],
  };
}

/** A manager running the WebApp controller with the deployment's settings; not started. */
export async function createOperator(options: OperatorOptions): Promise<Manager> {
  const mgr = await createManager({
    config: options.config,
    ...(options.client ? { client: options.client } : {}),
    logger: options.logger ?? jsonLogger(),
    metricsBindAddress: options.metricsBindAddress,
    healthProbeBindAddress: options.healthProbeBindAddress,
    // Released on a clean stop, so a rolling update hands over at once instead of after 15 s.
    ...(options.leaderElect
      ? { leaderElection: { id: LEADER_ELECTION_ID, namespace: options.leaderElectionNamespace, releaseOnCancel: true } }
      : {}),
  });
  mgr.addHealthzCheck('ping', ping);
  setupWebAppController(mgr, { externalSystem: options.externalSystem ?? new ExternalSystem() });
  return mgr;
}

async function main(): Promise<void> {
  const logger = jsonLogger();
  const signals = installSignalHandlers();
  try {
    const mgr = await createOperator({ config: getConfig(), logger, ...parseFlags(process.argv.slice(2)) });
    await mgr.start(signals.signal);
  } finally {
    signals.remove();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    jsonLogger().error({ err }, 'operator stopped with an error');
    process.exit(1);
  });
}
