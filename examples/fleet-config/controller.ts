/**
 * The FleetConfig operator: runs in the hub, writes each FleetConfig's ConfigMap into every member
 * cluster its selector picks, and reports per member in the hub which generation it holds or why not.
 *
 * One reconcile converges one FleetConfig across the whole fleet (members are reached through the
 * fleet, each write bounded by `memberTimeoutMs` on the manager's clock, so an unreachable member
 * costs one timeout and an error in its status entry — never the others' progress). It is woken by
 * the FleetConfig itself, by a change to a propagated ConfigMap in any member (its owner labels map it
 * back), and by any member joining or leaving. Deleting a FleetConfig removes its ConfigMaps from the
 * members first (a finalizer); a member that cannot be reached keeps the finalizer until it can, or
 * until it leaves the fleet.
 */
import { ConfigMapResource, setStatusCondition, type Clock, type ObjectOf } from 'kube-converge/meta';
import { isNotFound } from 'kube-converge/client';
import { controllerManagedBy, enqueueRequestsFromMapFunc, kindSource, requestFor, type Source } from 'kube-converge/controller';
import { CacheNotSyncedError, addFinalizer, removeFinalizer, type ManagerClient } from 'kube-converge/manager';
import { fleetSource, type Cluster, type Fleet } from 'kube-converge/multicluster';
import { FleetConfig, type ClusterStatus } from './types.js';

type ConfigMap = ObjectOf<typeof ConfigMapResource>;

export const FINALIZER = 'fleet.converge.dev/cleanup';
export const OWNER_NAMESPACE = 'fleet.converge.dev/owner-namespace';
export const OWNER_NAME = 'fleet.converge.dev/owner-name';

/** Options of `addFleetConfigController`. */
export interface FleetConfigControllerOptions {
  /** How long one write to one member may take before it counts as failed; default 5 000 ms. */
  memberTimeoutMs?: number;
  /** How soon a FleetConfig with a failed member is tried again; default 10 000 ms. */
  retryAfterMs?: number;
}

/** Adds the FleetConfig controller to `fleet`'s local manager. */
export function addFleetConfigController(fleet: Fleet, options: FleetConfigControllerOptions = {}): void {
  const memberTimeoutMs = options.memberTimeoutMs ?? 5_000;
  const retryAfterMs = options.retryAfterMs ?? 10_000;
  const hub = fleet.local.client;
  const clock = fleet.local.clock;
  controllerManagedBy(fleet.local)
    .for(FleetConfig)
    .watchesRawSource(
      fleetSource(
        fleet,
        () =>
          kindSource(
            ConfigMapResource,
            enqueueRequestsFromMapFunc<ConfigMap>((cm) => {
              const namespace = cm.metadata.labels?.[OWNER_NAMESPACE];
              const name = cm.metadata.labels?.[OWNER_NAME];
              return namespace && name ? [{ namespace, name }] : [];
            }),
          ),
        { requests: 'as-is' },
      ),
    )
    .watchesRawSource(membershipSource(fleet))
    .complete(async (req, ctx) => {
      const fc = hub.get(FleetConfig, req);
      if (!fc) return;
      const write = <R>(what: (signal: AbortSignal) => Promise<R>) => withDeadline(clock, memberTimeoutMs, ctx.signal, what);

      if (fc.metadata.deletionTimestamp) {
        if (!fc.metadata.finalizers?.includes(FINALIZER)) return;
        const failed = await Promise.all(
          fleet.clusters().map((c) =>
            removeFrom(c, fc, write).then(
              () => undefined,
              (err: unknown) => c.name + ': ' + message(err),
            ),
          ),
        );
        const errors = failed.filter((f) => f !== undefined);
        if (errors.length > 0) throw new Error(`cleanup pending in ${errors.join('; ')}`);
        const copy = structuredClone(fc);
        removeFinalizer(copy, FINALIZER);
        await hub.update(FleetConfig, copy);
        return;
      }
      if (!fc.metadata.finalizers?.includes(FINALIZER)) {
        const copy = structuredClone(fc);
        addFinalizer(copy, FINALIZER);
        await hub.update(FleetConfig, copy);
        return; // the update wakes us again
      }

      const generation = fc.metadata.generation ?? 0;
      const entries: ClusterStatus[] = await Promise.all(
        fleet.clusters().map(async (cluster): Promise<ClusterStatus> => {
          const previous = fc.status?.clusters?.find((s) => s.name === cluster.name);
          try {
            if (selects(fc, cluster)) {
              await applyTo(cluster, fc, write);
              return { name: cluster.name, syncedGeneration: generation };
            }
            await removeFrom(cluster, fc, write);
            return { name: cluster.name };
          } catch (err) {
            return {
              name: cluster.name,
              ...(previous?.syncedGeneration !== undefined ? { syncedGeneration: previous.syncedGeneration } : {}),
              lastError: message(err),
            };
          }
        }),
      );
      const clusters = entries
        .filter((e) => e.syncedGeneration !== undefined || e.lastError !== undefined)
        .sort((a, b) => a.name.localeCompare(b.name));
      const failing = clusters.filter((e) => e.lastError !== undefined);
      const status = structuredClone(fc.status ?? {});
      status.observedGeneration = generation;
      status.clusters = clusters;
      const conditions = status.conditions ?? [];
      setStatusCondition(
        conditions,
        failing.length === 0
          ? {
              type: 'Ready',
              status: 'True',
              reason: 'Synced',
              message: `synced to ${clusters.length} member(s)`,
              observedGeneration: generation,
            }
          : {
              type: 'Ready',
              status: 'False',
              reason: 'MemberErrors',
              message: failing.map((f) => `${f.name}: ${f.lastError}`).join('; '),
              observedGeneration: generation,
            },
        clock.now(),
      );
      status.conditions = conditions;
      if (JSON.stringify(status) !== JSON.stringify(fc.status ?? {})) {
        await hub.status().update(FleetConfig, { ...fc, status });
      }
      return failing.length > 0 ? { requeueAfter: retryAfterMs } : {};
    });
}

/** Whether `cluster`'s labels include every label of the FleetConfig's selector. */
function selects(fc: FleetConfig, cluster: Cluster): boolean {
  const wanted = fc.spec.clusterSelector?.matchLabels ?? {};
  return Object.entries(wanted).every(([k, v]) => cluster.labels[k] === v);
}

type Write = <R>(what: (signal: AbortSignal) => Promise<R>) => Promise<R>;

async function applyTo(cluster: Cluster, fc: FleetConfig, write: Write): Promise<void> {
  const { name, namespace, data = {} } = fc.spec.configMap;
  const labels = { [OWNER_NAMESPACE]: fc.metadata.namespace ?? '', [OWNER_NAME]: fc.metadata.name ?? '' };
  const current = readCached(cluster.client, { namespace, name });
  if (!current) {
    await write((signal) => cluster.client.create(ConfigMapResource, { metadata: { name, namespace, labels }, data }, { signal }));
    return;
  }
  const same =
    JSON.stringify(current.data ?? {}) === JSON.stringify(data) &&
    Object.entries(labels).every(([k, v]) => current.metadata.labels?.[k] === v);
  if (same) return;
  await write((signal) =>
    cluster.client.update(
      ConfigMapResource,
      { ...current, metadata: { ...current.metadata, labels: { ...current.metadata.labels, ...labels } }, data },
      { signal },
    ),
  );
}

async function removeFrom(cluster: Cluster, fc: FleetConfig, write: Write): Promise<void> {
  const { name, namespace } = fc.spec.configMap;
  const current = readCached(cluster.client, { namespace, name });
  // Only a ConfigMap this FleetConfig wrote is ours to delete.
  if (
    !current ||
    current.metadata.labels?.[OWNER_NAME] !== fc.metadata.name ||
    current.metadata.labels?.[OWNER_NAMESPACE] !== fc.metadata.namespace
  )
    return;
  await write(async (signal) => {
    try {
      await cluster.client.delete(ConfigMapResource, { namespace, name }, { signal });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  });
}

/** A member's cached ConfigMap; a member whose cache has not synced yet counts as failing for now. */
function readCached(client: ManagerClient, nn: { namespace: string; name: string }): ConfigMap | undefined {
  return client.get(ConfigMapResource, nn);
}

/** Runs `what` with a signal that aborts after `ms` on `clock` (or when `parent` aborts). */
async function withDeadline<R>(clock: Clock, ms: number, parent: AbortSignal, what: (signal: AbortSignal) => Promise<R>): Promise<R> {
  const deadline = new AbortController();
  const timer = clock.setTimer(() => deadline.abort(new Error(`no answer within ${ms} ms`)), ms);
  try {
    return await what(AbortSignal.any([parent, deadline.signal]));
  } finally {
    timer.cancel();
  }
}

/** Enqueues every FleetConfig when a member joins or leaves: its selectors may pick it. */
function membershipSource(fleet: Fleet): Source {
  return {
    toString: () => 'fleet membership',
    async start(ctx) {
      const enqueueAll = (): void => {
        try {
          for (const fc of fleet.local.client.list(FleetConfig)) ctx.queue.add(requestFor(fc));
        } catch (err) {
          // Before the hub's cache synced, its initial list enqueues every FleetConfig anyway.
          if (!(err instanceof CacheNotSyncedError)) throw err;
        }
      };
      fleet.subscribe({ engaged: enqueueAll, disengaged: enqueueAll }, ctx.signal);
    },
  };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
