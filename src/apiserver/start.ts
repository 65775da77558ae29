/**
 * Embedding: `startApiServer()` creates the core, listens on loopback (port 0 by default) over HTTPS
 * and returns what a test needs — the URL, the CA that signs the serving certificate, the admin
 * token, a kubeconfig (object and YAML) that kubectl and clients accept unedited, the in-process
 * `handle`, `compact()` for 410 tests, and `stop()`, which closes every watch and socket.
 * Invariants: every request over the socket must carry the admin token or a ServiceAccount token
 * the server minted (which RBAC then authorizes; health and version excepted), over HTTPS unless `insecureHttp` was asked for, which is logged as a warning;
 * `stop()` is idempotent, later calls share the first one's promise.
 */
import { writeFile } from 'node:fs/promises';
import { stringify as toYaml } from 'yaml';
import { noopLogger, type Clock, type Logger } from '../meta/index.js';
import { createApiServer, type ApiServer, type ApiServerOptions, type ServiceAccountTokenOptions } from './api-server.js';
import type { RecordedRequest } from './authorization/index.js';
import type { IssuedToken } from './authentication/index.js';
import { generateAdminToken } from './authentication/index.js';
import { listen } from './http/index.js';
import type { ApiRequest, ApiResponse } from './wire/index.js';
import { servingMaterial } from './http/index.js';

/** Options of `startApiServer`: where to listen, whether to use TLS, and the options passed on to the server core. */
export interface StartApiServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). Another address is logged as a warning; the token is still required. */
  host?: string;
  /**
   * Serve plain HTTP instead of HTTPS (default false). For clients that cannot be given a CA; the
   * admin token is still required, and travels in clear text. Logged as a warning.
   */
  insecureHttp?: boolean;
  /** How long a connection may take to send a request's headers before it is answered 408 and closed (default 60 000 ms). */
  headersTimeoutMs?: number;
  clock?: Clock;
  historySize?: number;
  bookmarkIntervalMs?: number;
  watchBufferSize?: number;
  /** Owner-reference garbage collection (default false, like envtest). */
  garbageCollection?: boolean;
  /** The Kubernetes version to behave as, `1.31` to the newest (default the newest; see `ApiServerOptions`). */
  kubernetesVersion?: string;
  /** Receives the audit annotations admission policies record (see `ApiServerOptions`). */
  onAdmissionAudit?: ApiServerOptions['onAdmissionAudit'];
  logger?: Logger;
}

/** @extension */
export interface Kubeconfig {
  apiVersion: 'v1';
  kind: 'Config';
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data'?: string } }[];
  users: { name: string; user: { token: string } }[];
  contexts: { name: string; context: { cluster: string; user: string; namespace: string } }[];
  'current-context': string;
  preferences: Record<string, never>;
}

export interface RunningApiServer {
  /** `https://127.0.0.1:<port>` (`http://` with `insecureHttp`). */
  url: string;
  /** PEM of the CA that signs the serving certificate; absent with `insecureHttp`. */
  caCertificate: string | undefined;
  /** The bearer token that authenticates as the admin (`system:masters`). */
  token: string;
  kubeconfig: Kubeconfig;
  kubeconfigYaml: string;
  writeKubeconfig(path: string): Promise<void>;
  /** In-process requests: trusted, so they need no token. */
  handle(req: ApiRequest): Promise<ApiResponse>;
  /** A bearer token for an existing ServiceAccount, as its `token` subresource mints one (RBAC then applies to it). */
  issueServiceAccountToken(options: ServiceAccountTokenOptions): IssuedToken;
  /** The distinct requests a user (outside `system:masters`) made over the socket, in authorization terms. */
  recording(username: string): RecordedRequest[];
  clearRecording(username: string): void;
  compact(): void;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A kubeconfig for `url` with the admin `token`, verifying the server against `caPem` when given. @extension */
export function kubeconfigFor(url: string, token: string, caPem?: string): Kubeconfig {
  const cluster =
    caPem === undefined ? { server: url } : { server: url, 'certificate-authority-data': Buffer.from(caPem).toString('base64') };
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'converge', cluster }],
    users: [{ name: 'converge-admin', user: { token } }],
    contexts: [{ name: 'converge', context: { cluster: 'converge', user: 'converge-admin', namespace: 'default' } }],
    'current-context': 'converge',
    preferences: {},
  };
}

const isLoopback = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

export async function startApiServer(options: StartApiServerOptions = {}): Promise<RunningApiServer> {
  const host = options.host ?? '127.0.0.1';
  const log = options.logger ?? noopLogger;
  const insecureHttp = options.insecureHttp ?? false;
  // Made (or taken from the process cache) before the core, so a failure leaves nothing running.
  const material = insecureHttp ? undefined : await servingMaterial(host);
  const token = generateAdminToken();
  const api: ApiServer = createApiServer({
    adminToken: token,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.historySize !== undefined ? { historySize: options.historySize } : {}),
    ...(options.bookmarkIntervalMs !== undefined ? { bookmarkIntervalMs: options.bookmarkIntervalMs } : {}),
    ...(options.watchBufferSize !== undefined ? { watchBufferSize: options.watchBufferSize } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.garbageCollection !== undefined ? { garbageCollection: options.garbageCollection } : {}),
    ...(options.kubernetesVersion !== undefined ? { kubernetesVersion: options.kubernetesVersion } : {}),
    ...(options.onAdmissionAudit ? { onAdmissionAudit: options.onAdmissionAudit } : {}),
  });
  let l: Awaited<ReturnType<typeof listen>>;
  try {
    l = await listen(api, {
      port: options.port ?? 0,
      host,
      adminToken: token,
      ...(material ? { tls: material } : {}),
      ...(options.headersTimeoutMs !== undefined ? { headersTimeoutMs: options.headersTimeoutMs } : {}),
    });
  } catch (err) {
    api.stop();
    throw err;
  }
  // A wildcard bind is not an address to dial: the URL (and kubeconfig) name loopback, which the certificate covers.
  const dialHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const hostPart = dialHost.includes(':') ? `[${dialHost}]` : dialHost;
  api.serverAddress = `${hostPart}:${l.port}`;
  const url = `${insecureHttp ? 'http' : 'https'}://${hostPart}:${l.port}`;
  if (insecureHttp) log.warn({ url }, 'apiserver serves plain HTTP: the admin token and every object travel unencrypted');
  if (!isLoopback(host))
    log.warn({ url, host }, 'apiserver listens beyond loopback: anyone who can reach it and holds the token is cluster admin');
  const kubeconfig = kubeconfigFor(url, token, material?.caPem);
  // Rendered on first use: most embedders (a TestEnv per test) never ask for the YAML.
  let kubeconfigYaml: string | undefined;
  const yaml = (): string => (kubeconfigYaml ??= toYaml(kubeconfig));
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      api.stop();
      await l.close();
    })());
  return {
    url,
    caCertificate: material?.caPem,
    token,
    kubeconfig,
    get kubeconfigYaml() {
      return yaml();
    },
    writeKubeconfig: (path) => writeFile(path, yaml(), { mode: 0o600 }),
    handle: (req) => api.handle(req),
    issueServiceAccountToken: (o) => api.issueServiceAccountToken(o),
    recording: (username) => api.recording(username),
    clearRecording: (username) => api.clearRecording(username),
    compact: () => api.compact(),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
