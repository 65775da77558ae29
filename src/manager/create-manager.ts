/**
 * `createManager`: resolves the options, fills in namespaces left out from the pod's service-account
 * mount, and reads the kubeconfig when no client or config is given. Invariant: it reads files only;
 * no connection is opened until the manager starts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidOptionError } from '../meta/index.js';
import { loadKubeConfig } from '../client/index.js';
import { SERVICE_ACCOUNT_DIR } from '../client/internal.js';
import { Manager } from './manager.js';
import { resolveManagerOptions, type ManagerOptions } from './options.js';

/** Creates a manager. Reads the kubeconfig when one is needed; opens no connection until `start`. */
export async function createManager(options: ManagerOptions = {}): Promise<Manager> {
  const resolved = resolveManagerOptions(withPodNamespace(options));
  const connection = resolved.client
    ? { client: resolved.client }
    : { config: resolved.config ?? loadKubeConfig({ path: resolved.kubeconfig, clock: resolved.clock }) };
  return new Manager(resolved, connection);
}

/**
 * Like controller-runtime, a leader-election (or sharding) namespace left out is the pod's own
 * namespace, read from the service-account mount; outside a cluster it must be given.
 */
function withPodNamespace(options: ManagerOptions): ManagerOptions {
  const { leaderElection: le, sharding: sh } = options;
  let out = options;
  if (le && !le.namespace) out = { ...out, leaderElection: { ...le, namespace: podNamespace('leaderElection.namespace') } };
  if (sh && !sh.namespace) out = { ...out, sharding: { ...sh, namespace: podNamespace('sharding.namespace') } };
  return out;
}

function podNamespace(option: string): string {
  const file = join(SERVICE_ACCOUNT_DIR, 'namespace');
  let namespace: string;
  try {
    namespace = readFileSync(file, 'utf8').trim();
  } catch (cause) {
    throw new InvalidOptionError(option, `is required when not running in a cluster (cannot read ${file}: ${(cause as Error).message})`);
  }
  if (!namespace) throw new InvalidOptionError(option, `is required: ${file} is empty`);
  return namespace;
}
