/**
 * A ServiceAccount identity on a test environment's server: the account (created when missing, with
 * its namespace), a bearer token the server minted for it, a RestConfig and a kubeconfig file that
 * authenticate as it — so `env.newManager({ config: sa.restConfig() })` runs a manager whose every
 * request RBAC authorizes — and the server's recording of what it asked for. Invariant: the token
 * outlives any test (a year on the environment's clock) and dies with the account.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { isAlreadyExists, type RestClient, type RestConfig } from '../client/index.js';
import { NamespaceResource, ServiceAccountResource, type ResourceDescriptor } from '../meta/index.js';
import { type Kubeconfig, type RunningApiServer } from '../apiserver/index.js';
import { kubeconfigFor } from '../apiserver/internal.js';
import { restConfigFor } from './server-config.js';
import { rbacRecording, writeRbacRecording, type RbacRecording } from './rbac-recording.js';

const TOKEN_SECONDS = 365 * 24 * 3600;

/** Which ServiceAccount `TestEnv.serviceAccount` acts as. */
export interface ServiceAccountOptions {
  /** Default `default`. */
  namespace?: string;
  name: string;
}

/** A ServiceAccount the tests act as: its token, client configuration and request recording. */
export interface ServiceAccountIdentity {
  namespace: string;
  name: string;
  /** `system:serviceaccount:<namespace>:<name>`. */
  username: string;
  token: string;
  /** A kubeconfig for kubectl, authenticating as the account. */
  kubeconfig: Kubeconfig;
  /** Where `kubeconfig` is written (inside the environment's folder, removed by `stop()`). */
  kubeconfigPath: string;
  /** A client configuration authenticating as the account (CA verified, no client-side rate limit). */
  restConfig(): RestConfig;
  /** What the account has asked for so far, in canonical order. */
  recording(): RbacRecording;
  /** Forgets what was recorded, e.g. after a setup phase. */
  clearRecording(): void;
  /** Writes `recording()` as JSON for `converge rbac`. */
  writeRecording(path: string): Promise<void>;
}

async function createIgnoringExisting(client: RestClient, r: ResourceDescriptor, obj: Parameters<RestClient['create']>[1]): Promise<void> {
  try {
    await client.create(r, obj);
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
  }
}

export async function serviceAccountIdentity(
  server: RunningApiServer,
  admin: RestClient,
  dir: string,
  { namespace = 'default', name }: ServiceAccountOptions,
): Promise<ServiceAccountIdentity> {
  await createIgnoringExisting(admin, NamespaceResource, { metadata: { name: namespace } });
  await createIgnoringExisting(admin, ServiceAccountResource, { metadata: { namespace, name } });
  const { token } = server.issueServiceAccountToken({ namespace, name, expirationSeconds: TOKEN_SECONDS });
  const username = `system:serviceaccount:${namespace}:${name}`;
  const kubeconfig = kubeconfigFor(server.url, token, server.caCertificate);
  kubeconfig.users[0]!.name = username;
  kubeconfig.contexts[0]!.context = { ...kubeconfig.contexts[0]!.context, user: username, namespace };
  const kubeconfigPath = join(dir, `kubeconfig-${namespace}-${name}`);
  await writeFile(kubeconfigPath, stringify(kubeconfig), { mode: 0o600 });
  const recording = (): RbacRecording => rbacRecording(username, server.recording(username));
  return {
    namespace,
    name,
    username,
    token,
    kubeconfig,
    kubeconfigPath,
    restConfig: () => ({ ...restConfigFor({ url: server.url, caCertificate: server.caCertificate, token }), namespace }),
    recording,
    clearRecording: () => server.clearRecording(username),
    writeRecording: (path) => writeRbacRecording(path, recording()),
  };
}
