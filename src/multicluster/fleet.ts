/**
 * The fleet: a local (hub) manager plus the member clusters a provider engages at run time, each
 * with a manager of its own (cache and split client). Multi-cluster sources subscribe to it and start
 * a per-cluster watch on every engagement; field indexes added here apply to every current and future
 * member. The fleet runs as a runnable of the local manager on every replica (members' caches are warm
 * on standbys too, as a manager's own cache is); its controllers run on the leader.
 *
 * With a local manager sharded by cluster (`sharding: { by: 'cluster' }`), the replicas share the
 * clusters instead: the provider's clusters are only registered, and a replica engages exactly the
 * clusters of the shards it holds — engaging is what hands a cluster's objects to the controllers, so
 * a replica taking over a shard reconciles its clusters from their initial lists — and disengages
 * them when it gives the shard up or loses it (after the shard gate refused their requests).
 *
 * Invariants: at most one engagement per name at a time (engaging a name again first disengages the
 * old one, and calls for one name run in order); a disengaged cluster's signal aborts before its
 * manager stops, so sources detach and reconciles see the abort first; when the fleet stops, every
 * member is disengaged before `start` resolves.
 */
import { type KubeObject, type Logger, type ResourceDescriptor } from '../meta/index.js';
import { whenAborted } from '../meta/internal.js';
import type { Controller, Runnable } from '../controller/index.js';
import { createManager, type CacheOptions, type Manager } from '../manager/index.js';
import type { Cluster } from './cluster.js';
import { fleetMetrics, type FleetMetrics } from './metrics.js';
import type { ClusterConnection, ClusterProvider, ClusterSink } from './provider.js';

/** Options of `new Fleet`. */
export interface FleetOptions {
  /** Runs the fleet's controllers, leader election and endpoints, and reads the hub's objects. */
  local: Manager;
  /** Engages and disengages clusters while the fleet runs; absent, only `engage`/`disengage` calls do. */
  provider?: ClusterProvider;
  /** Cache options of every member's manager unless its connection says otherwise. */
  cache?: CacheOptions;
}

/** Told of every engagement and disengagement (and, on subscribing, of the clusters engaged already). */
export interface FleetListener {
  engaged(cluster: Cluster): void;
  disengaged(cluster: Cluster): void;
}

interface Member {
  cluster: Cluster;
  stop: AbortController;
  run: Promise<void>;
}

type FieldIndex = { resource: ResourceDescriptor<KubeObject>; field: string; extract: (obj: KubeObject) => readonly string[] };

/** A local manager plus the member clusters engaged at run time. */
export class Fleet implements ClusterSink, Runnable {
  readonly local: Manager;
  readonly #provider: ClusterProvider | undefined;
  readonly #cache: CacheOptions | undefined;
  readonly #log: Logger;
  readonly #members = new Map<string, Member>();
  /** Per name, the tail of its engage/disengage calls, so they run in order. */
  readonly #queue = new Map<string, Promise<unknown>>();
  readonly #listeners = new Set<FleetListener>();
  readonly #indexes: FieldIndex[] = [];
  /** Every cluster the provider registered, engaged or not (a sharded fleet engages only its shards'). */
  readonly #known = new Map<string, ClusterConnection>();
  /** The local manager's open shards, when it shards by cluster; undefined otherwise. */
  readonly #openShards: Set<number> | undefined;
  #stopped = false;
  /** The fleet's metrics on the local manager's registry (multi-cluster controllers report here too). */
  readonly #metrics: FleetMetrics;
  /** Its multi-cluster controllers and the clusters each runs in, for `explain`. */
  readonly #controllers: { controller: Controller<unknown>; accepts: (cluster: Cluster) => boolean }[] = [];

  /** Adds the fleet to `local` as a runnable of every replica; it starts with `local`. */
  constructor(options: FleetOptions) {
    this.local = options.local;
    this.#provider = options.provider;
    this.#cache = options.cache;
    this.#log = options.local.logger.child({ component: 'fleet' });
    this.#openShards = options.local.options.sharding?.by === 'cluster' ? new Set() : undefined;
    this.#metrics = fleetMetrics(options.local.metrics.registry);
    this.local.add(this);
    // The local manager's explain (and /debug/converge?cluster=) answers for engaged members.
    this.local.explainClusters({
      get: (name) => {
        const cluster = this.get(name);
        return (
          cluster && { manager: cluster.manager, controllers: this.#controllers.filter((c) => c.accepts(cluster)).map((c) => c.controller) }
        );
      },
      names: () => [...this.#members.keys()],
      controllers: () => this.#controllers.map((c) => c.controller),
    });
  }

  needLeaderElection(): boolean {
    return false;
  }

  /** Runs the provider until `signal` aborts, then disengages every member. */
  async start(signal: AbortSignal): Promise<void> {
    let failure: unknown;
    const open = this.#openShards;
    if (open) {
      this.local.watchShards(
        {
          opened: (shard) => {
            open.add(shard);
            for (const [name, conn] of this.#known) if (this.local.shardOf(name) === shard) void this.#engageKnown(name, conn);
          },
          closed: (shard) => {
            open.delete(shard);
            for (const name of [...this.#members.keys()])
              if (this.local.shardOf(name) === shard) void this.#inOrder(name, () => this.#disengageNow(name));
          },
        },
        signal,
      );
    }
    try {
      if (this.#provider) {
        this.#log.info({ provider: String(this.#provider) }, 'starting cluster provider');
        await this.#provider.run(this, signal);
      }
      await whenAborted(signal);
    } catch (err) {
      failure = err;
    }
    this.#stopped = true;
    await Promise.all([...this.#members.keys()].map((name) => this.#inOrder(name, () => this.#disengageNow(name))));
    if (failure !== undefined) throw failure;
  }

  /** Registers a multi-cluster controller running in the clusters `accepts` takes, so `explain` reports it (the builder calls this). */
  addController(controller: Controller<unknown>, accepts: (cluster: Cluster) => boolean): void {
    this.#controllers.push({ controller, accepts });
  }

  /** Counts a multi-cluster controller's reconcile of `cluster` (`converge_fleet_reconcile_total`). */
  reportReconcile(controller: string, cluster: string, result: 'success' | 'error' | 'requeue'): void {
    this.#metrics.reconciled(controller, cluster, result);
  }

  /** The engaged cluster of that name, if any. */
  get(name: string): Cluster | undefined {
    return this.#members.get(name)?.cluster;
  }

  /** Every engaged cluster, in engagement order. */
  clusters(): Cluster[] {
    return [...this.#members.values()].map((m) => m.cluster);
  }

  /** Subscribes until `signal` aborts; `engaged` is called at once for each cluster engaged already. */
  subscribe(listener: FleetListener, signal: AbortSignal): void {
    if (signal.aborted) return;
    this.#listeners.add(listener);
    signal.addEventListener('abort', () => this.#listeners.delete(listener), { once: true });
    for (const m of this.#members.values()) this.#notify(listener, 'engaged', m.cluster);
  }

  /** A field index on `resource` in every member, engaged now or later (add it before the fleet starts). */
  indexField<T extends KubeObject>(resource: ResourceDescriptor<T>, field: string, extract: (obj: T) => readonly string[]): void {
    const index = { resource, field, extract } as unknown as FieldIndex;
    this.#indexes.push(index);
    for (const m of this.#members.values()) m.cluster.manager.indexField(index.resource, index.field, index.extract);
  }

  /**
   * Registers a cluster and engages it, replacing an engaged one of that name. Resolves with the
   * engaged cluster, or undefined when another replica's shard holds it (a fleet sharded by cluster).
   */
  engage(name: string, connection: ClusterConnection): Promise<Cluster | undefined> {
    this.#known.set(name, connection);
    return this.#engageKnown(name, connection);
  }

  /** Unregisters a cluster and disengages it if engaged. */
  disengage(name: string): Promise<void> {
    this.#known.delete(name);
    return this.#inOrder(name, () => this.#disengageNow(name));
  }

  #owned(name: string): boolean {
    const shard = this.local.shardOf(name);
    return !this.#openShards || (shard !== undefined && this.#openShards.has(shard));
  }

  #engageKnown(name: string, connection: ClusterConnection): Promise<Cluster | undefined> {
    return this.#inOrder(name, async () => {
      if (this.#stopped) throw new Error(`fleet stopped: cluster ${name} not engaged`);
      if (this.#members.has(name)) await this.#disengageNow(name);
      // Registered meanwhile elsewhere, or its shard is not (or no longer) ours.
      if (this.#known.get(name) !== connection || !this.#owned(name)) return undefined;
      const manager = await createManager({
        ...('config' in connection ? { config: connection.config } : { client: connection.client }),
        clock: this.local.clock,
        logger: this.local.logger.child({ cluster: name }),
        // A member's registry is never served: the fleet's own metrics are on the local manager's.
        processMetrics: false,
        ...((connection.cache ?? this.#cache) ? { cache: (connection.cache ?? this.#cache)! } : {}),
      });
      for (const ix of this.#indexes) manager.indexField(ix.resource, ix.field, ix.extract);
      const stop = new AbortController();
      const cluster: Cluster = { name, labels: { ...connection.labels }, manager, client: manager.client, signal: stop.signal };
      const run = manager.start(stop.signal).catch((err: unknown) => {
        // A member that fails (e.g. its credentials are refused) is disengaged; the fleet goes on.
        if (!stop.signal.aborted) {
          this.#metrics.engagement('failed');
          this.#log.error({ err, cluster: name }, 'member cluster failed; disengaging it');
          void this.#inOrder(name, () => this.#disengageNow(name));
        }
      });
      this.#members.set(name, { cluster, stop, run });
      this.#metrics.engagement('engaged');
      this.#metrics.engaged(this.#members.size);
      this.#log.info({ cluster: name }, 'cluster engaged');
      for (const l of this.#listeners) this.#notify(l, 'engaged', cluster);
      return cluster;
    });
  }

  async #disengageNow(name: string): Promise<void> {
    const member = this.#members.get(name);
    if (!member) return;
    this.#members.delete(name);
    this.#metrics.engaged(this.#members.size);
    this.#metrics.forget(name);
    member.stop.abort(new Error(`cluster ${name} disengaged`));
    for (const l of this.#listeners) this.#notify(l, 'disengaged', member.cluster);
    await member.run;
    this.#log.info({ cluster: name }, 'cluster disengaged');
  }

  #inOrder<R>(name: string, fn: () => Promise<R>): Promise<R> {
    const prev = this.#queue.get(name) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => {});
    this.#queue.set(name, tail);
    void tail.then(() => {
      if (this.#queue.get(name) === tail) this.#queue.delete(name);
    });
    return next;
  }

  #notify(listener: FleetListener, what: 'engaged' | 'disengaged', cluster: Cluster): void {
    try {
      listener[what](cluster);
    } catch (err) {
      this.#log.error({ err, cluster: cluster.name }, `fleet listener failed on ${what}`);
    }
  }
}
