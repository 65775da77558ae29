/**
 * Embedding: `startApiServer()` creates the core, listens on loopback (port 0 by default) and returns
 * what a test needs — the URL, a kubeconfig (object and YAML) that kubectl and clients accept, the
 * in-process `handle`, `compact()` for 410 tests, and `stop()`, which closes every watch and socket.
 * `stop()` is idempotent; later calls share the first one's promise.
 */
import { writeFile } from 'node:fs/promises';
import { stringify as toYaml } from 'yaml';
import type { Clock, Logger } from '../meta/index.js';
import { createApiServer, type ApiServer } from './api-server.js';
import { listen } from './http-adapter.js';
import type { ApiRequest, ApiResponse } from './request.js';

export interface StartApiServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  clock?: Clock;
  historySize?: number;
  bookmarkIntervalMs?: number;
  watchBufferSize?: number;
  /** Owner-reference garbage collection (default false, like envtest). */
  garbageCollection?: boolean;
  logger?: Logger;
}

export interface Kubeconfig {
  apiVersion: 'v1';
  kind: 'Config';
  clusters: { name: string; cluster: { server: string } }[];
  users: { name: string; user: Record<string, never> }[];
  contexts: { name: string; context: { cluster: string; user: string; namespace: string } }[];
  'current-context': string;
  preferences: Record<string, never>;
}

export interface RunningApiServer {
  url: string;
  kubeconfig: Kubeconfig;
  kubeconfigYaml: string;
  writeKubeconfig(path: string): Promise<void>;
  handle(req: ApiRequest): Promise<ApiResponse>;
  compact(): void;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export function kubeconfigFor(url: string): Kubeconfig {
  return {
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: 'converge', cluster: { server: url } }],
    users: [{ name: 'converge', user: {} }],
    contexts: [{ name: 'converge', context: { cluster: 'converge', user: 'converge', namespace: 'default' } }],
    'current-context': 'converge',
    preferences: {},
  };
}

export async function startApiServer(options: StartApiServerOptions = {}): Promise<RunningApiServer> {
  const api: ApiServer = createApiServer({
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.historySize !== undefined ? { historySize: options.historySize } : {}),
    ...(options.bookmarkIntervalMs !== undefined ? { bookmarkIntervalMs: options.bookmarkIntervalMs } : {}),
    ...(options.watchBufferSize !== undefined ? { watchBufferSize: options.watchBufferSize } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.garbageCollection !== undefined ? { garbageCollection: options.garbageCollection } : {}),
  });
  const host = options.host ?? '127.0.0.1';
  const l = await listen(api, { port: options.port ?? 0, host });
  const hostPart = host.includes(':') ? `[${host}]` : host;
  api.serverAddress = `${hostPart}:${l.port}`;
  const url = `http://${hostPart}:${l.port}`;
  const kubeconfig = kubeconfigFor(url);
  const kubeconfigYaml = toYaml(kubeconfig);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      api.stop();
      await l.close();
    })());
  return {
    url, kubeconfig, kubeconfigYaml,
    writeKubeconfig: (path) => writeFile(path, kubeconfigYaml, { mode: 0o600 }),
    handle: (req) => api.handle(req),
    compact: () => api.compact(),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
