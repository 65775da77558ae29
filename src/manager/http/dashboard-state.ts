/**
 * What the dashboard page shows, as one JSON snapshot: per controller its queue, workers, reconcile
 * counts, latency histogram and last errors; per cached kind its informer's sync state, store size,
 * watch reconnects and relists; and the objects of the controllers' kinds that are not converged,
 * each with its `explain` answer — the manager's own, and those of each engaged member cluster of a
 * fleet (read from the member's cache, for the fleet's controllers). Rates (adds per second) are left to the page, which compares two
 * snapshots.
 *
 * Invariants: a snapshot is read from the manager's metrics registry, its controllers' trackers and
 * its cache only — it makes no API request and changes nothing; at most `MAX_NOT_CONVERGED` objects
 * are explained per snapshot, so its cost is bounded whatever the cluster's size.
 */
import type { Registry } from 'prom-client';
import { keyOf, type Clock, type KubeObject, type NamespacedName, type ResourceDescriptor } from '../../meta/index.js';
import { clusterKeyOf } from '../../meta/internal.js';
import type { SharedIndexInformer } from '../../cache/index.js';
import type { Controller } from '../../controller/index.js';
import type { ReconcileState } from '../../controller/internal.js';
import type { ConvergeReport } from '../explain/index.js';

/** Enough to act on, few enough to read on one page. */
export const MAX_NOT_CONVERGED = 50;
const MAX_LAST_ERRORS = 5;

type Informers = readonly { resource: ResourceDescriptor; informer: SharedIndexInformer<KubeObject> }[];

/** Where a snapshot's facts come from: the manager's parts. */
export interface DashboardSource {
  registry: Registry;
  controllers: () => readonly Controller<unknown>[];
  /** The cache's informers, by kind. */
  informers: () => Informers;
  /** Engaged member clusters: each one's informers and the controllers whose requests name it. */
  clusters: () => readonly { name: string; informers: Informers; controllers: readonly Controller<unknown>[] }[];
  explain: (resource: ResourceDescriptor, nn: NamespacedName, signal: AbortSignal, cluster: string | undefined) => Promise<ConvergeReport>;
  clock: Clock;
}

export interface ControllerSnapshot {
  name: string;
  kind: string | undefined;
  queueDepth: number;
  addsTotal: number;
  inFlight: number;
  maxWorkers: number;
  reconciles: Record<string, number>;
  errors: number;
  /** Cumulative counts per upper bound in seconds (`+Inf` last), of reconcile durations. */
  latency: { le: string; count: number }[];
  lastErrors: { request: string; message: string; reason?: string; at?: string }[];
}

export interface KindSnapshot {
  kind: string;
  apiVersion: string;
  synced: boolean;
  phase: string;
  objects: number;
  reconnects: number;
  relists: number;
  lastError?: string;
}

export interface DashboardSnapshot {
  at: string;
  controllers: ControllerSnapshot[];
  kinds: KindSnapshot[];
  notConverged: { kind: string; cluster?: string; namespace?: string; name: string; why: string[]; report: ConvergeReport }[];
  /** True when more objects were not converged than were explained. */
  truncated: boolean;
}

/** One snapshot of the manager (see the file's doc for what it holds). */
export async function dashboardSnapshot(source: DashboardSource, signal: AbortSignal): Promise<DashboardSnapshot> {
  const metrics = await metricValues(source.registry);
  const controllers = source.controllers().map((c) => controllerSnapshot(c, metrics));
  const kinds = source.informers().map(({ resource, informer }) => kindSnapshot(resource, informer));
  const suspects = notConvergedSuspects(source);
  const notConverged = [];
  for (const s of suspects.slice(0, MAX_NOT_CONVERGED)) {
    const report = await source.explain(s.resource, s.nn, signal, s.cluster);
    if (report.converged) continue;
    notConverged.push({
      kind: s.resource.kind,
      ...(s.cluster !== undefined ? { cluster: s.cluster } : {}),
      ...(s.nn.namespace ? { namespace: s.nn.namespace } : {}),
      name: s.nn.name,
      why: s.why,
      report,
    });
  }
  return {
    at: new Date(source.clock.now()).toISOString(),
    controllers,
    kinds,
    notConverged,
    truncated: suspects.length > MAX_NOT_CONVERGED,
  };
}

type MetricValues = Map<string, { labels: Record<string, string | number>; value: number; metricName?: string }[]>;

async function metricValues(registry: Registry): Promise<MetricValues> {
  const out: MetricValues = new Map();
  for (const m of await registry.getMetricsAsJSON()) out.set(m.name, m.values as never);
  return out;
}

function sum(metrics: MetricValues, name: string, match: Record<string, string>, metricName?: string): number {
  let total = 0;
  for (const v of metrics.get(name) ?? []) {
    if (metricName !== undefined && v.metricName !== metricName) continue;
    if (Object.entries(match).every(([k, want]) => String(v.labels[k]) === want)) total += v.value;
  }
  return total;
}

function controllerSnapshot(c: Controller<unknown>, metrics: MetricValues): ControllerSnapshot {
  const byController = { controller: c.name };
  const reconciles: Record<string, number> = {};
  for (const v of metrics.get('controller_runtime_reconcile_total') ?? []) {
    if (v.labels['controller'] === c.name) reconciles[String(v.labels['result'])] = v.value;
  }
  const latency = (metrics.get('controller_runtime_reconcile_time_seconds') ?? [])
    .filter((v) => v.metricName === 'controller_runtime_reconcile_time_seconds_bucket' && v.labels['controller'] === c.name)
    .map((v) => ({ le: String(v.labels['le']), count: v.value }));
  const lastErrors = c
    .reconcileStates()
    .filter((s): s is ReconcileState & { lastError: NonNullable<ReconcileState['lastError']> } => s.lastError !== undefined)
    .sort((a, b) => (b.lastFinishedAt ?? 0) - (a.lastFinishedAt ?? 0))
    .slice(0, MAX_LAST_ERRORS)
    .map((s) => ({
      request: clusterKeyOf(s.request),
      message: s.lastError.message,
      ...(s.lastError.reason ? { reason: s.lastError.reason } : {}),
      ...(s.lastFinishedAt !== undefined ? { at: new Date(s.lastFinishedAt).toISOString() } : {}),
    }));
  return {
    name: c.name,
    kind: c.forResource?.kind,
    queueDepth: sum(metrics, 'workqueue_depth', { name: c.name }),
    addsTotal: sum(metrics, 'workqueue_adds_total', { name: c.name }),
    inFlight: sum(metrics, 'controller_runtime_active_workers', byController),
    maxWorkers: c.options.maxConcurrentReconciles,
    reconciles,
    errors: sum(metrics, 'controller_runtime_reconcile_errors_total', byController),
    latency,
    lastErrors,
  };
}

function kindSnapshot(resource: ResourceDescriptor, informer: SharedIndexInformer<KubeObject>): KindSnapshot {
  const status = informer.status();
  return {
    kind: resource.kind,
    apiVersion: resource.apiVersion,
    synced: informer.hasSynced(),
    phase: status.phase,
    objects: informer.getIndexer().listKeys().length,
    reconnects: status.reconnects,
    relists: status.relists,
    ...(status.lastError ? { lastError: `${status.lastError.reason}: ${status.lastError.message}` } : {}),
  };
}

interface Suspect {
  resource: ResourceDescriptor;
  nn: NamespacedName;
  cluster?: string;
  why: string[];
}

/**
 * The cached objects of the controllers' `for` kinds with a sign of not being converged: a stale
 * status, a Ready condition not True, a deletion waiting for finalizers, or a failing reconcile.
 */
function notConvergedSuspects(source: DashboardSource): Suspect[] {
  const clusters = source.clusters();
  const multiCluster = new Set(clusters.flatMap((c) => c.controllers));
  const out = suspectsIn(
    source.informers(),
    source.controllers().filter((c) => !multiCluster.has(c)),
    undefined,
  );
  for (const c of clusters) out.push(...suspectsIn(c.informers, c.controllers, c.name));
  return out;
}

/** The suspects among `informers`' objects of `controllers`' kinds, in `cluster` (undefined: the manager's own). */
function suspectsIn(informers: Informers, controllers: readonly Controller<unknown>[], cluster: string | undefined): Suspect[] {
  const byKind = new Map(informers.map((i) => [`${i.resource.group}/${i.resource.kind}`, i.informer]));
  const out: Suspect[] = [];
  const seen = new Set<string>();
  for (const c of controllers) {
    const resource = c.forResource;
    const informer = resource && byKind.get(`${resource.group}/${resource.kind}`);
    if (!resource || !informer?.hasSynced()) continue;
    for (const obj of informer.getIndexer().list()) {
      const nn: NamespacedName = resource.namespaced
        ? { namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' }
        : { name: obj.metadata.name ?? '' };
      const id = `${resource.group}/${resource.kind}/${keyOf(nn)}`;
      if (seen.has(id)) continue;
      // A member's requests carry its cluster: that is the key its controllers know them by.
      const request = cluster === undefined ? nn : ({ cluster, ...nn } as NamespacedName);
      const why = signsOfNotConverged(obj, c.reconcileState(request));
      if (why.length === 0) continue;
      seen.add(id);
      out.push({ resource, nn, ...(cluster !== undefined ? { cluster } : {}), why });
    }
  }
  return out;
}

function signsOfNotConverged(obj: KubeObject, state: ReconcileState | undefined): string[] {
  const why: string[] = [];
  const status = (obj as { status?: { observedGeneration?: unknown; conditions?: unknown } }).status;
  const observed = status?.observedGeneration;
  if (typeof obj.metadata.generation === 'number' && typeof observed === 'number' && observed < obj.metadata.generation) {
    why.push('generation not observed');
  }
  const conditions = Array.isArray(status?.conditions) ? (status.conditions as { type?: unknown; status?: unknown }[]) : [];
  const ready = conditions.find((c) => c.type === 'Ready');
  if (ready && ready.status !== 'True') why.push(`Ready=${String(ready.status)}`);
  if (obj.metadata.deletionTimestamp && (obj.metadata.finalizers?.length ?? 0) > 0) why.push('finalizer pending');
  if (state?.phase === 'waiting-retry' || state?.phase === 'terminal') why.push('reconcile error');
  return why;
}
