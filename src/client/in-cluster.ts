/**
 * In-cluster configuration (client-go's `rest.InClusterConfig`): the API server from
 * `KUBERNETES_SERVICE_HOST`/`_PORT` (IPv6 addresses bracketed), the service account's CA and
 * namespace files, and its token file, re-read as the kubelet rotates it. Also `getConfig()`, the
 * usual order controller-runtime follows to find a config.
 * Invariant: outside a pod (variables or files missing) this fails with a `KubeConfigError` saying what
 * is missing, never with a half-built config.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realClock, type Clock } from '../meta/index.js';
import { tokenFileAuth } from './auth-providers.js';
import { KubeConfigError } from './errors.js';
import { loadKubeConfig } from './kubeconfig.js';
import type { RestConfig } from './rest-config.js';

/** Where the kubelet mounts a pod's service-account token, CA and namespace. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Options of `inClusterConfig`: the environment and service-account folder to read instead of the process's own, and the clock. */
export interface InClusterConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** Where the token, `ca.crt` and `namespace` files are (default the standard mount). */
  serviceAccountDir?: string;
  clock?: Clock | undefined;
}

/** The `RestConfig` of the pod this process runs in: its API server and service account. */
export function inClusterConfig(options: InClusterConfigOptions = {}): RestConfig {
  const env = options.env ?? process.env;
  const dir = options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  const fail = (reason: string, cause?: unknown): KubeConfigError =>
    new KubeConfigError(undefined, 'in-cluster', reason, cause === undefined ? undefined : { cause });
  if (!host || !port) throw fail('not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set');
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const tokenPath = join(dir, 'token');
  let token: string;
  try {
    token = readFileSync(tokenPath, 'utf8').trim();
  } catch (cause) {
    throw fail(`cannot read the service account token ${tokenPath}: ${(cause as Error).message}`, cause);
  }
  const caPath = join(dir, 'ca.crt');
  let ca: Buffer;
  try {
    ca = readFileSync(caPath);
  } catch (cause) {
    throw fail(`cannot read the service account CA ${caPath}: ${(cause as Error).message}`, cause);
  }
  let namespace = 'default';
  try {
    namespace = readFileSync(join(dir, 'namespace'), 'utf8').trim() || 'default';
  } catch {
    // client-go also falls back to "default" when the namespace file is absent (it is optional in projected volumes).
  }
  return {
    server: `https://${hostPart}:${port}`,
    tls: { ca },
    auth: tokenFileAuth({ path: tokenPath, clock: options.clock ?? realClock, initialToken: token, source: { context: 'in-cluster' } }),
    namespace,
    source: { context: 'in-cluster' },
  };
}

/** Options of `getConfig`: the kubeconfig context to use, the environment to look in, and the clock. */
export interface GetConfigOptions {
  context?: string;
  env?: NodeJS.ProcessEnv;
  clock?: Clock | undefined;
}

/**
 * controller-runtime's `GetConfig` order: `KUBECONFIG` when set; else in-cluster when
 * `KUBERNETES_SERVICE_HOST` is set; else `~/.kube/config`.
 */
export function getConfig(options: GetConfigOptions = {}): RestConfig {
  const env = options.env ?? process.env;
  if (!env['KUBECONFIG'] && env['KUBERNETES_SERVICE_HOST'] && options.context === undefined) {
    return inClusterConfig({ env, clock: options.clock });
  }
  return loadKubeConfig(options);
}
