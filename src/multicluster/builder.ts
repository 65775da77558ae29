/**
 * The multi-cluster builder: controller-runtime's builder, where `for`, `owns` and `watches` watch
 * the kind in every engaged member cluster (or those `onClusters` accepts) and the reconciler gets the
 * request's cluster with its client. The controller itself is an ordinary one run by the fleet's local
 * manager (leader election, metrics, explain), with one queue for all clusters.
 *
 * ```ts
 * fleetControllerManagedBy(fleet)
 *   .for(ConfigMapResource)
 *   .onClusters((c) => c.labels['env'] === 'prod')
 *   .complete(async (req, ctx) => { … ctx.client is req.cluster's … });
 * ```
 *
 * A reconciler written for one cluster, `(req, ctx) => …` reading `ctx.client`, runs here unchanged.
 * Writes through `ctx.client` are linted for owner references into another cluster (owner-lint.ts).
 */
import { InvalidOptionError, type KubeObject, type ResourceDescriptor } from '../meta/index.js';
import {
  newUnmanagedController,
  enqueueRequestForObject,
  enqueueRequestForOwner,
  kindSource,
  type Controller,
  type EventHandler,
  type OwnsOptions,
  type Predicate,
  type ReconcileContext,
  type Result,
  type Source,
  type WatchesOptions,
  type ForOptions,
} from '../controller/index.js';
import { BuilderSettings } from '../controller/internal.js';
import type { ManagerClient } from '../manager/index.js';
import type { Cluster, ClusterRequest } from './cluster.js';
import type { Fleet } from './fleet.js';
import { fleetSource } from './fleet-source.js';
import { CrossClusterOwnerLint } from './owner-lint.js';

/** What a multi-cluster reconciler gets: the request's cluster, and its client as `client`. */
export interface FleetReconcileContext extends ReconcileContext<ManagerClient> {
  readonly cluster: Cluster;
}

/** Reconciles one object of one member cluster. */
export type FleetReconciler = (req: ClusterRequest, ctx: FleetReconcileContext) => Promise<Result | void>;

/** Starts a multi-cluster builder for a controller run by `fleet.local`. */
export function fleetControllerManagedBy(fleet: Fleet): FleetBuilder {
  return new FleetBuilder(fleet);
}

type SourceFactory = (global: readonly Predicate[], clusters: (c: Cluster) => boolean) => Source;

/** Builds a multi-cluster controller: what it reconciles in each cluster, which clusters, its options. */
export class FleetBuilder extends BuilderSettings {
  readonly #fleet: Fleet;
  #for: ResourceDescriptor<KubeObject> | undefined;
  readonly #sources: SourceFactory[] = [];
  readonly #owned: ResourceDescriptor<KubeObject>[] = [];
  #clusters: (c: Cluster) => boolean = () => true;
  readonly #lint: CrossClusterOwnerLint;

  constructor(fleet: Fleet) {
    super();
    this.#fleet = fleet;
    this.#lint = new CrossClusterOwnerLint(fleet.local.logger.child({ component: 'fleet-lint' }));
  }

  /** The primary kind, watched in every selected member: its events enqueue `{ cluster, namespace, name }`. */
  for<T extends KubeObject>(resource: ResourceDescriptor<T>, options: ForOptions<T> = {}): this {
    if (this.#for) throw new InvalidOptionError('builder.for', 'for() may only be called once: a controller reconciles one kind');
    this.#for = resource as ResourceDescriptor<KubeObject>;
    const own = options.predicates ?? [];
    this.#sources.unshift((global, clusters) =>
      fleetSource(this.#fleet, (c) => kindSource(resource, this.#lint.recording(enqueueRequestForObject<T>(), c.name), ...global, ...own), {
        clusters,
      }),
    );
    return this;
  }

  /** A kind the primary creates in the same cluster: its events enqueue its owner there. Needs `for`. */
  owns<T extends KubeObject>(resource: ResourceDescriptor<T>, options: OwnsOptions<T> = {}): this {
    const own = options.predicates ?? [];
    const onlyController = options.onlyController ?? true;
    this.#owned.push(resource as ResourceDescriptor<KubeObject>);
    this.#sources.push((global, clusters) => {
      if (!this.#for) throw new InvalidOptionError('builder.owns', 'owns() can only be used together with for()');
      const owner = this.#for;
      const handler = enqueueRequestForOwner<T>(owner, { onlyController });
      return fleetSource(this.#fleet, (c) => kindSource(resource, this.#lint.recording(handler, c.name), ...global, ...own), { clusters });
    });
    return this;
  }

  /** Any kind in every selected member, with any handler; its requests get the member's name. */
  watches<T extends KubeObject>(resource: ResourceDescriptor<T>, handler: EventHandler<T>, options: WatchesOptions<T> = {}): this {
    const own = options.predicates ?? [];
    this.#sources.push((global, clusters) =>
      fleetSource(this.#fleet, (c) => kindSource(resource, this.#lint.recording(handler, c.name), ...global, ...own), { clusters }),
    );
    return this;
  }

  /**
   * A kind of the local (hub) cluster, whose handler enqueues `ClusterRequest`s itself (e.g. a map
   * function from a hub object to the members it concerns). A request without a cluster is dropped.
   */
  watchesLocal<T extends KubeObject>(resource: ResourceDescriptor<T>, handler: EventHandler<T>, options: WatchesOptions<T> = {}): this {
    const own = options.predicates ?? [];
    this.#sources.push((global) => kindSource(resource, this.#lint.recording(handler, undefined), ...global, ...own));
    return this;
  }

  /** Runs the controller only in clusters `filter` accepts (checked when a cluster is engaged). */
  onClusters(filter: (cluster: Cluster) => boolean): this {
    this.#clusters = filter;
    return this;
  }

  /** Builds the controller, adds it to the fleet's local manager and returns it. */
  build(reconciler: FleetReconciler): Controller<ManagerClient> {
    const name = this.controllerName ?? this.#for?.kind.toLowerCase();
    if (!name) throw new InvalidOptionError('builder.named', 'one of for() or named() must be called');
    if (this.#sources.length === 0)
      throw new InvalidOptionError('builder.watches', 'no watches: use for(), owns(), watches() or watchesLocal()');
    const fleet = this.#fleet;
    const lint = this.#lint;
    // `for` and `owns` kinds are the members' (what explain matches an object of a cluster against).
    const controller = newUnmanagedController(fleet.local, {
      ...this.controllerOptions,
      name,
      forResource: this.#for,
      ownedResources: this.#owned,
      reconciler: async (req, ctx) => {
        const target = (req as Partial<ClusterRequest>).cluster;
        if (typeof target !== 'string') {
          ctx.log.error({ request: req }, 'request names no cluster; dropped (a watchesLocal handler must enqueue ClusterRequests)');
          return;
        }
        const cluster = fleet.get(target);
        // Disengaged since it was enqueued: its objects are no longer ours to converge.
        if (!cluster) return;
        try {
          const result = await reconciler(req as ClusterRequest, {
            ...ctx,
            client: lint.checking(cluster.client, target),
            cluster,
            signal: AbortSignal.any([ctx.signal, cluster.signal]),
            log: ctx.log.child({ cluster: target }),
          });
          fleet.reportReconcile(name, target, result && (result.requeueAfter ?? 0) > 0 ? 'requeue' : 'success');
          return result;
        } catch (err) {
          fleet.reportReconcile(name, target, 'error');
          throw err;
        }
      },
    });
    // Watches go in before the manager sees the controller: a running manager starts it at once.
    for (const make of this.#sources) void controller.watch(make(this.eventFilters, this.#clusters));
    fleet.local.add(controller);
    fleet.addController(controller as Controller<unknown>, this.#clusters);
    return controller;
  }

  /** `build` without the controller. */
  complete(reconciler: FleetReconciler): void {
    this.build(reconciler);
  }
}
