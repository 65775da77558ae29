/**
 * The WebApp operator: every WebApp gets a Deployment and a Service named after
 * it, a record in an external system guarded by a finalizer, and a status that says how far the
 * rollout got. Every event — the WebApp, its Deployment or Service, the ConfigMap it references —
 * maps to the same key, and one level-triggered reconcile converges all of it:
 *
 *   1. read the WebApp (cache); gone → nothing to do (children are garbage-collected by owner refs)
 *   2. being deleted → external cleanup, then drop the finalizer; otherwise make sure it is present
 *   3. read the referenced ConfigMap (cache) and hash its data (its changes reach us a second late, so a burst joins)
 *   4. create or patch the Deployment and the Service — only fields we own, only when they drifted
 *   5. register the app in the external system (idempotent)
 *   6. compute status from the Deployment's status; write it only when it changed
 *
 * Invariants: no write when nothing drifted; every write of the WebApp itself carries the
 * resourceVersion it was computed from, so a stale cache or a concurrent writer ends in 409 Conflict
 * instead of a lost update — and since a conflict proves a newer version exists, whose watch event
 * wakes the reconciler again, it ends the reconcile quietly; a failed external cleanup keeps the
 * finalizer and is retried with backoff.
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import {
  ConfigMapResource,
  DeploymentResource,
  ServiceResource,
  keyOf,
  namespacedNameOf,
  setStatusCondition,
  type KubeObject,
  type NewCondition,
  type ObjectOf,
  type ResourceDescriptor,
} from 'kube-converge/meta';
import { createMergePatch, ignoreNotFound, isConflict } from 'kube-converge/client';
import {
  annotationChangedPredicate,
  controllerManagedBy,
  enqueueRequestsFromMapFunc,
  generationChangedPredicate,
  labelChangedPredicate,
  or,
  predicateFuncs,
  type ControllerOptions,
  type Request,
} from 'kube-converge/controller';
import {
  AlreadyOwnedError,
  containsFinalizer,
  createOrPatch,
  setControllerReference,
  type EventRecorder,
  type Manager,
  type ManagerClient,
} from 'kube-converge/manager';
import type { ExternalSystem } from './external-system.js';
import { mergeOwned } from './owned-fields.js';
import { configHash, desiredDeployment, desiredService } from './render.js';
import { CONFIG_REF_INDEX, WEBAPP_FINALIZER, WebApp, type WebAppStatus } from './types.js';

type WebAppObject = ObjectOf<typeof WebApp>;

export interface WebAppControllerOptions {
  /** Where each live WebApp is registered and from which the finalizer removes it. */
  externalSystem: ExternalSystem;
  /** Controller options (workers, rate limiter, …); tests shorten the backoff with `rateLimiter`. */
  controller?: ControllerOptions;
  /** Controller name (metrics label, events' reporting controller); default `webapp`. */
  name?: string;
}

/**
 * How long a ConfigMap change waits before the WebApps using it reconcile: changes made in the
 * meantime join it, so a burst of edits (a script, an apply of many keys) rolls each Deployment about
 * once, not once per edit.
 */
const CONFIG_CHANGE_DELAY_MS = 1000;

/** Passes updates that start a deletion or change the finalizers, which no generation records. */
const lifecycleChangedPredicate = predicateFuncs({
  update: (e) =>
    e.objectOld.metadata.deletionTimestamp !== e.objectNew.metadata.deletionTimestamp ||
    JSON.stringify(e.objectOld.metadata.finalizers ?? []) !== JSON.stringify(e.objectNew.metadata.finalizers ?? []),
});

/**
 * The WebApp changes a reconcile acts on: spec (generation), labels, annotations, deletion and
 * finalizers. Status-only updates, which are the operator's own status writes, do not wake it again.
 */
const webAppChangedPredicate = or(generationChangedPredicate, labelChangedPredicate, annotationChangedPredicate, lifecycleChangedPredicate);

/** Something found during a reconcile that keeps the WebApp from working: reported as `Degraded`. */
interface Problem {
  reason: string;
  message: string;
}

/** Registers the field index and the controller on `mgr`. Call before `mgr.start()`. */
export function setupWebAppController(mgr: Manager, options: WebAppControllerOptions): void {
  const name = options.name ?? 'webapp';
  const external = options.externalSystem;
  const recorder = mgr.getEventRecorder(`${name}-controller`);

  // Namespaced by the manager: a list in namespace N matching `spec.configRef=x` finds N's WebApps only.
  mgr.indexField(WebApp, CONFIG_REF_INDEX, (app) => (app.spec.configRef ? [app.spec.configRef] : []));

  const appsUsingConfigMap = (cm: ConfigMap & KubeObject): Request[] =>
    mgr.client
      .list(WebApp, { namespace: cm.metadata.namespace, matchingFields: { [CONFIG_REF_INDEX]: cm.metadata.name! } })
      .map(namespacedNameOf);

  controllerManagedBy(mgr)
    .named(name)
    .for(WebApp, { predicates: [webAppChangedPredicate] })
    .owns(DeploymentResource)
    .owns(ServiceResource)
    .watches(ConfigMapResource, enqueueRequestsFromMapFunc(appsUsingConfigMap, { delayMs: CONFIG_CHANGE_DELAY_MS }))
    .withOptions(options.controller ?? {})
    .complete(async (req, { client, log, signal }) => {
      try {
        await reconcile(req, client, signal);
      } catch (err) {
        // Only writes of the WebApp itself carry a resourceVersion, so a conflict means our view of it
        // was stale. The newer version is on its way through the watch and its event wakes this
        // reconciler again: there is nothing to retry and nothing to report.
        if (!isConflict(err)) throw err;
        log.debug({ reason: 'Conflict' }, 'stale view of the WebApp; waiting for the newer version');
      }
    });

  async function reconcile(req: Request, client: ManagerClient, signal: AbortSignal): Promise<void> {
    const cached = client.get(WebApp, req);
    if (!cached) return; // deleted; owner references let the garbage collector take the children
    const key = keyOf(req);

    if (cached.metadata.deletionTimestamp) {
      if (!containsFinalizer(cached, WEBAPP_FINALIZER)) return;
      try {
        await external.cleanup(key);
      } catch (err) {
        recorder.event(cached, 'Warning', 'CleanupFailed', `external cleanup failed: ${(err as Error).message}`);
        throw err; // keeps the finalizer; retried with backoff
      }
      recorder.event(cached, 'Normal', 'CleanedUp', 'external record removed');
      // 404: the WebApp is gone already (another actor dropped its last finalizer), which is exactly
      // what removing ours was for: done, not an error (controller-runtime's `IgnoreNotFound`).
      await patchFinalizers(
        client,
        cached,
        (cached.metadata.finalizers ?? []).filter((f) => f !== WEBAPP_FINALIZER),
        signal,
      ).catch(ignoreNotFound);
      return;
    }

    let app: WebAppObject = cached;
    if (!containsFinalizer(app, WEBAPP_FINALIZER)) {
      app = await patchFinalizers(client, app, [...(app.metadata.finalizers ?? []), WEBAPP_FINALIZER], signal);
    }

    const problems: Problem[] = [];
    let cm: ConfigMap | undefined;
    if (app.spec.configRef) {
      cm = client.get(ConfigMapResource, { ...req, name: app.spec.configRef });
      if (!cm) problems.push({ reason: 'ConfigMapNotFound', message: `ConfigMap ${app.spec.configRef} not found` });
    }

    const changes: ChildChanges = { created: [], updated: [] };
    const deployment = await ensureChild(
      client,
      recorder,
      app,
      DeploymentResource,
      desiredDeployment(app, configHash(cm)),
      problems,
      changes,
      signal,
    );
    await ensureChild(client, recorder, app, ServiceResource, desiredService(app), problems, changes, signal);
    // One Event per kind of change and reconcile, naming every child: each Event is a write to the API server.
    if (changes.created.length > 0) recorder.event(app, 'Normal', 'Created', `created ${changes.created.join(' and ')}`);
    if (changes.updated.length > 0) recorder.event(app, 'Normal', 'Updated', `${changes.updated.join(' and ')} had drifted`);

    await external.register(key);

    const status = computeStatus(app, deployment, problems, mgr.clock.now());
    if (Object.keys(createMergePatch({ status: app.status ?? {} }, { status })).length > 0) {
      await client
        .status()
        .patch(WebApp, req, { metadata: { resourceVersion: app.metadata.resourceVersion }, status }, 'merge', { signal });
    }
  }
}

/** Writes the finalizer list with the resourceVersion it was computed from (409 if someone got there first). */
function patchFinalizers(client: ManagerClient, app: WebAppObject, finalizers: string[], signal: AbortSignal): Promise<WebAppObject> {
  const patch = { metadata: { finalizers, resourceVersion: app.metadata.resourceVersion } };
  return client.patch(WebApp, namespacedNameOf(app), patch, 'merge', { signal });
}

/** The children a reconcile created or patched, as `Kind name`, for its Events. */
interface ChildChanges {
  created: string[];
  updated: string[];
}

/**
 * Creates the child, or patches the fields we own when they drifted (noted in `changes`). A child
 * controlled by someone else is left alone and reported as a problem. Returns the child as last seen
 * (undefined if not ours).
 */
async function ensureChild<T extends KubeObject>(
  client: ManagerClient,
  recorder: EventRecorder,
  app: WebAppObject,
  resource: ResourceDescriptor<T>,
  desired: T,
  problems: Problem[],
  changes: ChildChanges,
  signal: AbortSignal,
): Promise<T | undefined> {
  try {
    const { result, object } = await createOrPatch(
      client,
      resource,
      desired,
      (obj) => {
        setControllerReference(app, obj);
        mergeOwned(obj as Record<string, unknown>, desired as Record<string, unknown>);
      },
      { signal },
    );
    if (result === 'created') changes.created.push(`${resource.kind} ${desired.metadata.name}`);
    else if (result !== 'unchanged') changes.updated.push(`${resource.kind} ${desired.metadata.name}`);
    return object;
  } catch (err) {
    if (!(err instanceof AlreadyOwnedError)) throw err;
    problems.push({ reason: 'ChildNotOwned', message: `${resource.kind} ${desired.metadata.name} is controlled by another owner` });
    recorder.event(app, 'Warning', 'ChildNotOwned', err.message);
    return undefined;
  }
}

/** The Deployment controller has reported on the Deployment's current spec. */
function deploymentObserved(deployment: Deployment): boolean {
  return (deployment.status?.observedGeneration ?? 0) >= (deployment.metadata?.generation ?? 1);
}

/** Status as a pure function of the WebApp, its Deployment and the problems met on the way. */
function computeStatus(app: WebAppObject, deployment: Deployment | undefined, problems: Problem[], nowMs: number): WebAppStatus {
  const generation = app.metadata.generation ?? 0;
  const desired = app.spec.replicas ?? 1;
  const ds = deployment?.status ?? {};
  const observed = deployment !== undefined && deploymentObserved(deployment);
  const ready = ds.readyReplicas ?? 0;
  const updated = observed ? (ds.updatedReplicas ?? 0) : 0;
  const complete = observed && ready === desired && updated === desired && (ds.replicas ?? 0) === desired;
  const problem = problems[0];
  const conditions = structuredClone(app.status?.conditions ?? []);
  const set = (c: Omit<NewCondition, 'observedGeneration'>): void => {
    setStatusCondition(conditions, { ...c, observedGeneration: generation }, nowMs);
  };
  set(
    complete
      ? { type: 'Progressing', status: 'False', reason: 'RolloutComplete', message: `${desired}/${desired} replicas updated and ready` }
      : {
          type: 'Progressing',
          status: 'True',
          reason: observed ? 'RollingOut' : 'Reconciling',
          message: `${ready}/${desired} ready, ${updated}/${desired} updated`,
        },
  );
  set(
    problem
      ? { type: 'Degraded', status: 'True', reason: problem.reason, message: problems.map((p) => p.message).join('; ') }
      : { type: 'Degraded', status: 'False', reason: 'AsExpected', message: '' },
  );
  set(
    problem
      ? { type: 'Ready', status: 'False', reason: problem.reason, message: problem.message }
      : complete
        ? { type: 'Ready', status: 'True', reason: 'AllReplicasReady', message: `${ready}/${desired} replicas ready` }
        : { type: 'Ready', status: 'False', reason: 'ReplicasNotReady', message: `${ready}/${desired} replicas ready` },
  );
  return { observedGeneration: generation, readyReplicas: ready, conditions };
}
