/**
 * A fleet's metrics, on its local manager's registry (the one `/metrics` serves): how many clusters
 * are engaged, engagements by outcome, and reconciles of multi-cluster controllers per cluster, so a
 * member that keeps failing shows up by name. A disengaged cluster's series are removed with it, so
 * a fleet's churn does not grow the registry.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** The fleet's metric families and the reporting side its parts feed. */
export interface FleetMetrics {
  engaged(count: number): void;
  engagement(result: 'engaged' | 'failed'): void;
  reconciled(controller: string, cluster: string, result: 'success' | 'error' | 'requeue'): void;
  forget(cluster: string): void;
}

/** Registers the fleet's metric families on `registry` (once per registry: a second fleet shares them). */
export function fleetMetrics(registry: Registry): FleetMetrics {
  const existing = registry.getSingleMetric('converge_fleet_engaged_clusters');
  const engagedClusters =
    (existing as Gauge | undefined) ??
    new Gauge({ name: 'converge_fleet_engaged_clusters', help: 'Member clusters engaged by this replica.', registers: [registry] });
  const engagements =
    (registry.getSingleMetric('converge_fleet_engagements_total') as Counter<'result'> | undefined) ??
    new Counter({
      name: 'converge_fleet_engagements_total',
      help: 'Cluster engagements by outcome.',
      labelNames: ['result'] as const,
      registers: [registry],
    });
  const reconciles =
    (registry.getSingleMetric('converge_fleet_reconcile_total') as Counter<'controller' | 'cluster' | 'result'> | undefined) ??
    new Counter({
      name: 'converge_fleet_reconcile_total',
      help: 'Reconciles of multi-cluster controllers per member cluster and result.',
      labelNames: ['controller', 'cluster', 'result'] as const,
      registers: [registry],
    });
  // prom-client removes a series by its full label set: remember each cluster's, to forget them.
  const series = new Map<string, Set<string>>();
  return {
    engaged: (count) => engagedClusters.set(count),
    engagement: (result) => engagements.inc({ result }),
    reconciled: (controller, cluster, result) => {
      reconciles.inc({ controller, cluster, result });
      const known = series.get(cluster) ?? new Set();
      known.add(JSON.stringify([controller, result]));
      series.set(cluster, known);
    },
    forget: (cluster) => {
      for (const key of series.get(cluster) ?? []) {
        const [controller, result] = JSON.parse(key) as [string, string];
        reconciles.remove({ controller, cluster, result });
      }
      series.delete(cluster);
    },
  };
}
