/**
 * The ApplicationRoute controller. One queue of ApplicationRoute keys
 * is fed by four watches: the routes themselves, the HTTPRoutes they control, and the Services and
 * TLS Secrets they reference (mapped back to routes through two multi-valued field indexes, so one
 * Service event finds exactly the routes that name it, without a scan).
 *
 * Each reconcile reads only the cache and asks "given this route and its dependencies as they exist
 * now, what should the HTTPRoute be?", never "which event woke me?". Invariants:
 * - while a backend Service or the TLS Secret is missing, the route says so
 *   (`DependenciesReady=False`, reason `ServiceNotFound`/`SecretNotFound`) and the reconcile returns
 *   without a requeue: the Service/Secret watch wakes it when the dependency appears — no polling. An
 *   HTTPRoute rendered earlier is left as it is (a vanished backend must not take the healthy ones
 *   down with it); a route that never converged gets none;
 * - the HTTPRoute is controlled by its route (owner reference, so the garbage collector removes it
 *   with the route) and written only when it drifted from the rendering;
 * - status (conditions, observedGeneration) is written only when it differs from the cached copy, as
 *   a merge patch of the status subresource. The status is this controller's alone, so it needs no
 *   optimistic lock: a reconcile re-run before its own status write reached the cache (woken by the
 *   HTTPRoute event of the same pass) sends the same status again, which the API server drops as a
 *   no-op — where an update carrying the stale resourceVersion would fail with 409 on every spec change.
 *   A write that fails (409 included) fails the reconcile, which is retried with backoff.
 *
 * No finalizer: the route's only output is the owned HTTPRoute, which garbage collection removes;
 * there is no external state whose cleanup a finalizer would have to guarantee.
 */
import { controllerManagedBy, enqueueRequestsFromMapFunc, type ReconcileContext, type Request } from 'kube-converge/controller';
import {
  AlreadyOwnedError,
  createOrPatch,
  setControllerReference,
  type EventRecorder,
  type Manager,
  type ManagerClient,
} from 'kube-converge/manager';
import {
  SecretResource,
  ServiceResource,
  clone,
  namespacedNameOf,
  setStatusCondition,
  type Clock,
  type KubeObject,
  type NewCondition,
  type ObjectOf,
} from 'kube-converge/meta';
import { desiredHTTPRoute, missingDependencies, backendServiceNames, tlsSecretNames } from './render.js';
import {
  ApplicationRoute,
  BACKEND_SERVICE_INDEX,
  HTTPRouteResource,
  TLS_SECRET_INDEX,
  TLS_SECRET_ANNOTATION,
  type HTTPRoute,
} from './types.js';

type Route = ObjectOf<typeof ApplicationRoute>;

export interface ApplicationRouteControllerOptions {
  /** Routes reconciled at once (never the same route twice at once). Default 4. */
  maxConcurrentReconciles?: number;
  /** Read-your-writes (default true); tests of the operator's own answer to a stale cache turn it off. */
  readYourWrites?: boolean;
}

export const APPLICATION_ROUTE_CONTROLLER = 'applicationroute';

/** Registers the two field indexes and the controller on `mgr`. Call before `mgr.start()`. */
export function setupApplicationRouteController(mgr: Manager, options: ApplicationRouteControllerOptions = {}): void {
  // Registered before start, the route informer syncs with the manager's cache, before any Service
  // or Secret handler runs: the map functions below never see an unsynced index.
  mgr.indexField(ApplicationRoute, BACKEND_SERVICE_INDEX, backendServiceNames);
  mgr.indexField(ApplicationRoute, TLS_SECRET_INDEX, tlsSecretNames);
  const routesReferencing =
    (index: string) =>
    (obj: KubeObject): Request[] =>
      mgr.client
        .list(ApplicationRoute, { namespace: obj.metadata.namespace, matchingFields: { [index]: obj.metadata.name ?? '' } })
        .map(namespacedNameOf);
  const recorder = mgr.getEventRecorder(`${APPLICATION_ROUTE_CONTROLLER}-controller`);
  controllerManagedBy(mgr)
    .for(ApplicationRoute)
    .owns(HTTPRouteResource)
    .watches(ServiceResource, enqueueRequestsFromMapFunc(routesReferencing(BACKEND_SERVICE_INDEX)))
    .watches(SecretResource, enqueueRequestsFromMapFunc(routesReferencing(TLS_SECRET_INDEX)))
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles ?? 4, readYourWrites: options.readYourWrites ?? true })
    .named(APPLICATION_ROUTE_CONTROLLER)
    .complete((req, ctx) => reconcileRoute(req, ctx, { clock: mgr.clock, recorder }));
}

async function reconcileRoute(
  req: Request,
  { client, signal }: ReconcileContext<ManagerClient>,
  deps: { clock: Clock; recorder: EventRecorder },
): Promise<void> {
  const route = client.get(ApplicationRoute, req);
  // Gone, or going: the HTTPRoute follows through garbage collection; nothing of ours to clean up.
  if (!route || route.metadata.deletionTimestamp) return;
  const missing = missingDependencies(route, {
    service: (name) => client.get(ServiceResource, { ...req, name }) !== undefined,
    secret: (name) => client.get(SecretResource, { ...req, name }) !== undefined,
  });
  if (missing) {
    const changed = await writeStatus(client, route, deps.clock, signal, [
      { type: 'DependenciesReady', status: 'False', reason: missing.reason, message: missing.message },
      { type: 'Ready', status: 'False', reason: 'DependenciesNotReady', message: missing.message },
    ]);
    if (changed) deps.recorder.event(route, 'Warning', missing.reason, missing.message, { action: 'Reconcile' });
    // No requeue: the Service/Secret watch enqueues this route when the dependency appears.
    return;
  }
  let outcome: Awaited<ReturnType<typeof createOrPatch<HTTPRoute>>>;
  try {
    outcome = await createOrPatch(client, HTTPRouteResource, emptyHTTPRoute(route), (hr) => render(route, hr), { signal });
  } catch (err) {
    if (!(err instanceof AlreadyOwnedError)) throw err;
    // Someone else's HTTPRoute has this name: retrying cannot fix it, the user must rename one of
    // them. The route is looked at again when it changes (or at the cache's periodic resync): events
    // of an HTTPRoute it does not control never map to it.
    await writeStatus(client, route, deps.clock, signal, [
      { type: 'DependenciesReady', status: 'True', reason: 'DependenciesFound', message: 'all backend Services and the TLS Secret exist' },
      { type: 'Ready', status: 'False', reason: 'HTTPRouteNotOwned', message: err.message },
    ]);
    return;
  }
  if (outcome.result === 'created' || outcome.result === 'updated') {
    deps.recorder.event(
      route,
      'Normal',
      outcome.result === 'created' ? 'HTTPRouteCreated' : 'HTTPRouteUpdated',
      `HTTPRoute ${route.metadata.name} ${outcome.result}`,
      {
        action: 'Reconcile',
        related: outcome.object,
      },
    );
  }
  await writeStatus(client, route, deps.clock, signal, [
    { type: 'DependenciesReady', status: 'True', reason: 'DependenciesFound', message: 'all backend Services and the TLS Secret exist' },
    { type: 'Ready', status: 'True', reason: 'HTTPRouteRendered', message: `HTTPRoute ${route.metadata.name} is up to date` },
  ]);
}

function emptyHTTPRoute(route: Route): HTTPRoute {
  return {
    apiVersion: HTTPRouteResource.apiVersion,
    kind: HTTPRouteResource.kind,
    metadata: namespacedNameOf(route),
    spec: {},
  };
}

/**
 * Brings `hr` (a mutable copy of the current HTTPRoute, or a new one) to the rendering: the spec is
 * ours entirely; labels and annotations are merged, so keys other actors added survive.
 */
function render(route: Route, hr: HTTPRoute): void {
  const desired = desiredHTTPRoute(route);
  hr.metadata.labels = { ...hr.metadata.labels, ...desired.metadata.labels };
  const tls = desired.metadata.annotations?.[TLS_SECRET_ANNOTATION];
  if (tls !== undefined) {
    hr.metadata.annotations = { ...hr.metadata.annotations, [TLS_SECRET_ANNOTATION]: tls };
  } else if (hr.metadata.annotations?.[TLS_SECRET_ANNOTATION] !== undefined) {
    const { [TLS_SECRET_ANNOTATION]: _dropped, ...rest } = hr.metadata.annotations;
    hr.metadata.annotations = rest;
  }
  hr.spec = desired.spec;
  setControllerReference(route, hr, { ownerResource: ApplicationRoute });
}

/**
 * Sets the conditions (stamped with the route's generation) and observedGeneration; writes the
 * status subresource only when something changed. Returns whether it wrote.
 */
async function writeStatus(
  client: ManagerClient,
  route: Route,
  clock: Clock,
  signal: AbortSignal,
  conditions: NewCondition[],
): Promise<boolean> {
  const generation = route.metadata.generation ?? 0;
  const next = clone(route) as Route;
  const status = (next.status ??= {});
  const list = (status.conditions ??= []);
  let changed = status.observedGeneration !== generation;
  status.observedGeneration = generation;
  for (const c of conditions) {
    if (setStatusCondition(list, { ...c, observedGeneration: generation }, clock.now())) changed = true;
  }
  if (!changed) return false;
  await client.status().patch(ApplicationRoute, namespacedNameOf(route), { status }, 'merge', { signal });
  return true;
}
