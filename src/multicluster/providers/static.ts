/**
 * A fixed list of clusters, each a REST config or a kubeconfig file (and context), engaged when the
 * fleet starts. A cluster whose kubeconfig cannot be read is logged and left out; the rest are engaged.
 */
import type { Client, RestConfig } from '../../client/index.js';
import { loadKubeConfig } from '../../client/index.js';
import { whenAborted } from '../../meta/internal.js';
import type { ClusterProvider, ClusterSink } from '../provider.js';

/** One cluster of a static provider: how to reach it, and its labels. */
export type StaticCluster = ({ config: RestConfig } | { client: Client } | { kubeconfig: string; context?: string }) & {
  labels?: Readonly<Record<string, string>>;
};

/** Engages every listed cluster (name → how to reach it) when the fleet starts. */
export function staticProvider(clusters: Readonly<Record<string, StaticCluster>>): ClusterProvider {
  return {
    toString: () => `static clusters (${Object.keys(clusters).length})`,
    async run(sink: ClusterSink, signal: AbortSignal): Promise<void> {
      const log = sink.local.logger.child({ component: 'fleet-provider' });
      await Promise.all(
        Object.entries(clusters).map(async ([name, c]) => {
          const labels = c.labels ?? {};
          try {
            if ('kubeconfig' in c) {
              const config = loadKubeConfig({ path: c.kubeconfig, ...(c.context ? { context: c.context } : {}), clock: sink.local.clock });
              await sink.engage(name, { config, labels });
            } else {
              await sink.engage(name, { ...c, labels });
            }
          } catch (err) {
            log.error({ err, cluster: name }, 'cluster not engaged');
          }
        }),
      );
      await whenAborted(signal);
    },
  };
}
