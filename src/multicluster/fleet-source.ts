/**
 * A multi-cluster source: one inner source per engaged cluster (started when the cluster is engaged,
 * stopped when it is disengaged or the controller stops), all feeding one controller's queue. By
 * default each cluster's requests carry its name (`{ cluster, namespace, name }`); a source made with
 * `requests: 'as-is'` adds what its handler enqueues unchanged, for handlers that map members' objects
 * to objects of the hub.
 *
 * A fleet source has no initial state to wait for: a member that cannot be reached must not hold up the
 * controller, so each cluster's source syncs on its own and reads of a cold cache are retried with
 * backoff (`CacheNotSyncedError`).
 */
import type { Source, SourceContext } from '../controller/index.js';
import type { Cluster } from './cluster.js';
import { clusterQueue } from './cluster-queue.js';
import type { Fleet } from './fleet.js';

/** Options of `fleetSource`. */
export interface FleetSourceOptions {
  /** Only clusters for which this returns true get the source (default: all). */
  clusters?: (cluster: Cluster) => boolean;
  /** `'cluster'` (default): requests are stamped with the cluster's name; `'as-is'`: added unchanged. */
  requests?: 'cluster' | 'as-is';
}

/** A source that runs `make(cluster)` in every engaged cluster of `fleet` (filtered by `options.clusters`). */
export function fleetSource(fleet: Fleet, make: (cluster: Cluster) => Source, options: FleetSourceOptions = {}): Source {
  const accepts = options.clusters ?? (() => true);
  const stamped = (options.requests ?? 'cluster') === 'cluster';
  let started = false;
  let description = 'fleet source';
  return {
    toString: () => description,
    async start(ctx: SourceContext): Promise<void> {
      if (started) throw new Error(`${description} started twice`);
      started = true;
      fleet.subscribe(
        {
          engaged: (cluster) => {
            if (!accepts(cluster)) return;
            const source = make(cluster);
            description = `fleet source: ${String(source)}`;
            const inner: SourceContext = {
              // The cluster's signal aborts on disengagement: its inner source stops with it.
              signal: AbortSignal.any([ctx.signal, cluster.signal]),
              queue: stamped ? clusterQueue(ctx.queue, cluster.name) : ctx.queue,
              host: cluster.manager,
              log: ctx.log.child({ cluster: cluster.name }),
            };
            source
              .start(inner)
              .catch((err: unknown) => inner.log.error({ err, source: String(source) }, 'source failed to start in cluster'));
          },
          disengaged: () => {},
        },
        ctx.signal,
      );
    },
  };
}
