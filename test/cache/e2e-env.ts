// Imports apiserver's internal (private) face: machinery shared between layers that the package does not export.
/**
 * End-to-end set-up: a local API server, a TCP proxy in front of it for fault injection, a writer
 * client talking to the server directly and a reader client (wrapped by `faultyClient`) going through
 * the proxy, and an informer over the reader. `converged()` waits until the cache equals the server.
 * The listener is the bare socket adapter over plain HTTP (these tests are about the cache, not TLS),
 * still with an admin token, which both clients carry.
 */
import assert from 'node:assert/strict';
import { createApiServer } from 'kube-converge/apiserver';
import { listen, type Listening } from '../../src/apiserver/internal.js';
import {
  createListerWatcher,
  createSharedIndexInformer,
  type SharedIndexInformer,
  type SharedIndexInformerOptions,
} from 'kube-converge/cache';
import { bearerTokenAuth, createClient, type RestClient } from 'kube-converge/client';
import { ConfigMapResource, objectKey, type KubeObject } from 'kube-converge/meta';
import { eventually } from 'kube-converge/testing';
import { faultyClient, type FaultyClient } from './faulty-client.js';
import { captureLogger } from './helpers.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export interface E2E {
  api: ReturnType<typeof createApiServer>;
  listening: Listening;
  proxy: TcpProxy;
  writer: RestClient;
  reader: FaultyClient;
  informer: SharedIndexInformer;
  logger: ReturnType<typeof captureLogger>;
  restartServer(): Promise<void>;
  converged(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startE2E(
  o: { informer?: Partial<SharedIndexInformerOptions<KubeObject>>; watchBufferSize?: number; kubernetesVersion?: string } = {},
): Promise<E2E> {
  const api = createApiServer({
    bookmarkIntervalMs: 1_000,
    ...(o.watchBufferSize ? { watchBufferSize: o.watchBufferSize } : {}),
    ...(o.kubernetesVersion ? { kubernetesVersion: o.kubernetesVersion } : {}),
  });
  const adminToken = 'e2e-admin-token';
  let listening = await listen(api, { adminToken });
  const proxy = await startTcpProxy(listening.port);
  const auth = bearerTokenAuth(adminToken);
  const writer = createClient({ config: { server: `http://127.0.0.1:${listening.port}`, auth, qps: -1 } });
  const rest = createClient({ config: { server: proxy.url, auth, qps: -1 }, maxRetries: 0 });
  const reader = faultyClient(rest);
  const logger = captureLogger();
  const informer = createSharedIndexInformer<KubeObject>({
    listerWatcher: createListerWatcher<KubeObject>({ client: reader, resource: ConfigMapResource, namespace: 'default' }),
    logger,
    ...o.informer,
    reflector: { backoff: { initialMs: 20, capMs: 300 }, ...o.informer?.reflector },
  });
  const ac = new AbortController();
  const running = informer.run(ac.signal);
  const env: E2E = {
    api,
    get listening() {
      return listening;
    },
    proxy,
    writer,
    reader,
    informer,
    logger,
    restartServer: async () => {
      const port = listening.port;
      await listening.close();
      listening = await listen(api, { port, adminToken });
      writer.close(); // its pooled sockets died with the old listener
    },
    converged: async (timeoutMs = 10_000) => {
      await eventually(
        async () => {
          const list = await writer.list(ConfigMapResource, { namespace: 'default' });
          const server = new Map(list.items.map((x) => [objectKey(x), x.metadata.resourceVersion]));
          const cache = new Map(
            informer
              .getIndexer()
              .list()
              .map((x) => [objectKey(x), x.metadata.resourceVersion]),
          );
          assert.deepEqual(cache, server);
        },
        { timeoutMs, intervalMs: 25, message: 'cache == server' },
      );
    },
    close: async () => {
      ac.abort();
      await running;
      writer.close();
      rest.close();
      await proxy.close();
      await listening.close();
      api.stop();
    },
  };
  return env;
}

export const configMap = (name: string, data: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
  data,
});
