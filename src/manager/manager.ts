/**
 * The Manager: runs controllers and everything they share — one informer cache, the split client,
 * leader election, the metrics and health endpoints, the event recorder — in controller-runtime's
 * order, and stops them in its order too.
 *
 *   start ─▶ HTTP + webhook servers ─▶ caches (wait for sync) ─▶ others ─▶ [win the lease] ─▶ leader runnables
 *   stop  ─▶ others ─▶ leader runnables ─▶ caches ─▶ HTTP + webhook servers ─▶ flush events ─▶ release the lease
 *
 * The stop waits at most `gracefulShutdownTimeoutMs` (in-flight reconciles finish; queued work is not
 * started, because each controller stops taking work when its signal aborts). Losing the lease cuts:
 * leader runnables are aborted at that instant, nothing is waited for, and `start` rejects with
 * `LeaderElectionLostError` — a manager never keeps reconciling without the lease. With
 * `onLoss: 'rejoin'` the manager stays up instead: the cut leader runnables are waited for, then it
 * campaigns again and, once it wins, starts them afresh (a new term: a new group, a new write signal).
 * `admitReconcile` (the controllers' gate) admits a leader-elected reconcile only while the elector's
 * fence is open, and the manager's client refuses every write once a leader's fence closed or an
 * object's shard was lost (`WriteFencedError`, checked synchronously when the write is made, before
 * anything is sent), so a reconcile already in flight when the lease lapsed cannot write after a
 * successor may lead.
 *
 * With `sharding`, shard ownership (`ShardOwnership`) runs from the caches' sync until after the stop:
 * it holds shard Leases, the cache watches only the namespaces of the held shards, and
 * `admitReconcile` (the controllers' gate) drops requests of other namespaces before they are reconciled
 * and hands each admitted reconcile its shard's signal, which aborts if the shard is lost.
 *
 * This class only composes the parts (each in its own file or sub-folder) and runs their lifecycle.
 *
 * Invariants: nothing does I/O before `start`; `start` runs once; the first runnable failure stops
 * the manager and is what `start` rejects with.
 */
import {
  InvalidOptionError,
  type Clock,
  type KubeObject,
  type Logger,
  type NamespacedName,
  type ResourceDescriptor,
} from '../meta/index.js';
import { untilAborted, whenAborted } from '../meta/internal.js';
import { createClient, type Client, type RestClient, type RestConfig } from '../client/index.js';
import type { SharedIndexInformer } from '../cache/index.js';
import {
  AlreadyStartedError,
  Controller,
  type Admission,
  type ControllerHost,
  type ControllerMetrics,
  type Runnable,
} from '../controller/index.js';
import type { WorkqueueMetricsProvider } from '../workqueue/index.js';
import { InformerCache, InformerPermissions, createSplitClient, withReadYourWrites, type ManagerClient } from './cache/index.js';
import { EventBroadcaster, type EventRecorder } from './events/index.js';
import { ClusterNotEngagedError, explainObject, type ConvergeReport } from './explain/index.js';
import {
  HealthChecks,
  HttpServerRunnable,
  healthProbeHandler,
  metricsHandler,
  type DashboardSource,
  type HealthCheck,
} from './http/index.js';
import { WriteFencedError } from './errors.js';
import { LeaderElectionRunnable } from './leader-election-runnable.js';
import { createManagerMetrics, createStalenessMetric, type ManagerMetrics } from './metrics/index.js';
import type { ResolvedManagerOptions } from './options.js';
import { stopInOrder } from './ordered-stop.js';
import { RunnableGroup } from './runnable-group.js';
import { reachabilityReporter } from './reachability.js';
import { ShardOwnership } from './shard-ownership.js';
import { ShardGate, namespaceSharder, shardRanges } from './sharding/index.js';
import { InformerStaleness, type StalenessReport } from './staleness.js';
import { withWriteFence, type WriteAttempt } from './write-fence.js';

/**
 * Member clusters `explain` answers for (a fleet registers its own): the engaged member's manager,
 * which holds the object's cache and API reader, and the controllers of this manager that reconcile
 * that cluster's objects. @extension
 */
export interface ExplainClusters {
  /** The engaged cluster of that name, or undefined. */
  get(name: string): { manager: Manager; controllers: readonly Controller<unknown>[] } | undefined;
  /** The names of the clusters engaged now, for the answer to a name that is not. */
  names(): readonly string[];
  /** Every controller whose requests name a cluster: left out when this manager's own objects are explained. */
  controllers(): readonly Controller<unknown>[];
}

/** Runs controllers and everything they share: the cache, the split client, leader election, metrics, health and events. */
export class Manager implements ControllerHost<ManagerClient>, AsyncDisposable {
  readonly options: ResolvedManagerOptions;
  readonly client: ManagerClient;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly metrics: ManagerMetrics;
  readonly #rest: Client;
  readonly #ownedRest: RestClient | undefined;
  readonly #cache: InformerCache;
  readonly #events: EventBroadcaster;
  readonly #healthz: HealthChecks;
  readonly #readyz: HealthChecks;
  readonly #servers: { metrics?: HttpServerRunnable; healthProbe?: HttpServerRunnable } = {};
  readonly #webhookServers: WebhookServerRunnable[] = [];
  readonly #internal = new AbortController();
  /** `leader` is this leadership term's group: with `onLoss: 'rejoin'` each term gets a fresh one. */
  readonly #groups: { http: RunnableGroup; caches: RunnableGroup; others: RunnableGroup; leader: RunnableGroup };
  /** Every runnable that runs only on the leader, to start again in each term. */
  readonly #leaderRunnables: Runnable[] = [];
  readonly #names = new Set<string>();
  /** Controllers added to this manager, for `explain`. */
  readonly #controllers: Controller<unknown>[] = [];
  readonly #clusters: ExplainClusters[] = [];
  readonly #elected: Promise<void>;
  #resolveElected!: () => void;
  #failure: unknown;
  #run: Promise<void> | undefined;
  #leaderElection: LeaderElectionRunnable | undefined;
  /** Whether this manager has led under leader election: from then on, a closed fence refuses writes. */
  #led = false;
  /** Aborts when this term's leadership is lost: the signal every write of the manager's client carries. */
  #leadershipLost = new AbortController();
  readonly #gate: ShardGate | undefined;
  readonly #sharding: ShardOwnership | undefined;
  readonly #shardKey: ((key: string) => number) | undefined;
  readonly #staleness: InformerStaleness | undefined;

  /**
   * Use `createManager`, which resolves the options and reads the kubeconfig. The manager owns (and
   * closes) a client it creates from `config`; a given `client` stays the caller's.
   */
  constructor(options: ResolvedManagerOptions, connection: { client: Client } | { config: RestConfig }) {
    this.options = options;
    this.logger = options.logger;
    this.clock = options.clock;
    this.metrics = createManagerMetrics({ processMetrics: options.processMetrics });
    if ('client' in connection) {
      this.#rest = connection.client;
    } else {
      const reachable = reachabilityReporter(connection.config.server, this.logger);
      this.#ownedRest = createClient({
        // controller-runtime turns client-side rate limiting off unless configured, relying on the
        // server's priority and fairness; a manager's informers and writers share one client.
        config: { ...connection.config, qps: connection.config.qps ?? -1 },
        clock: options.clock,
        onRequest: (m) => {
          this.metrics.restClientRequest({ code: m.code, method: m.verb, host: m.host });
          reachable(m);
        },
      });
      this.#rest = this.#ownedRest;
    }
    const permissions = new InformerPermissions(this.logger.child({ component: 'cache' }));
    this.#cache = new InformerCache({
      client: permissions.observe(this.#rest),
      clock: this.clock,
      logger: this.logger.child({ component: 'cache' }),
      cache: options.cache,
      shards: options.sharding?.by === 'namespace' ? options.sharding.shards : undefined,
      shardOwner: (shard) => this.#sharding?.holderOf(shard),
    });
    this.client = withWriteFence(withReadYourWrites(createSplitClient({ client: this.#rest, cache: this.#cache }), this.#cache), {
      refuse: (attempt) => this.#refuseWrite(attempt),
      signal: (attempt) => this.#writeSignal(attempt),
    });
    this.#events = new EventBroadcaster({ client: this.#rest, clock: this.clock, logger: this.logger.child({ component: 'events' }) });
    this.#healthz = new HealthChecks({ path: 'healthz', logger: this.logger });
    this.#readyz = new HealthChecks({ path: 'readyz', logger: this.logger });
    this.#readyz.add('cache-sync', () => {
      if (!this.#cache.synced()) throw new Error(`caches not synced: ${this.#cache.unsynced().join(', ')}`);
    });
    // A refused list or watch never heals by retrying: readiness names the missing permission.
    this.#readyz.add('informer-permissions', () => permissions.check());
    if (options.sharding) {
      const shardOf = namespaceSharder(shardRanges(options.sharding.shards));
      this.#shardKey = shardOf;
      this.#gate = new ShardGate({
        shardOf:
          options.sharding.by === 'cluster'
            ? (req) => {
                const cluster = (req as { cluster?: unknown }).cluster;
                return typeof cluster === 'string' ? shardOf(cluster) : undefined;
              }
            : (req) => (req.namespace ? shardOf(req.namespace) : undefined),
      });
      this.#sharding = new ShardOwnership({
        sharding: options.sharding,
        client: this.#rest,
        gate: this.#gate,
        cache: this.#cache,
        metrics: this.metrics,
        clock: this.clock,
        logger: this.logger,
      });
      const sharding = this.#sharding;
      this.#readyz.add('sharding', () => {
        if (!sharding.reconciledOnce()) throw new Error('shard ownership not reconciled yet');
      });
    }
    if (options.staleness) {
      const cache = this.#cache;
      const staleness = new InformerStaleness({
        source: { resources: () => cache.resources(), informerFor: (r) => cache.informerFor(r) },
        reader: this.#rest,
        // A kind cached in some namespaces only is read in the first: the resourceVersion of a list is
        // the store's revision whatever it filters, and the identity may list only there.
        namespaceOf: (r) => cache.watchedNamespaces(r)[0] ?? '',
        clock: this.clock,
        logger: this.logger.child({ component: 'staleness' }),
        ...options.staleness,
      });
      this.#staleness = staleness;
      createStalenessMetric(this.metrics.registry, () => staleness.reports());
      this.#readyz.add('informer-staleness', () => {
        const stale = staleness.reports().filter((r) => r.stale);
        if (stale.length > 0) throw new Error(`stale informers: ${stale.map(describeStale).join('; ')}`);
      });
    }
    this.#groups = {
      http: this.#newGroup('http-servers'),
      caches: this.#newGroup('caches'),
      others: this.#newGroup('others'),
      leader: this.#newGroup('leader-election'),
    };
    this.#groups.caches.add({ start: (signal) => this.#cache.start(signal), needLeaderElection: () => false });
    if (this.#staleness) {
      const staleness = this.#staleness;
      this.#groups.others.add({ start: (signal) => staleness.run(signal), needLeaderElection: () => false });
    }
    if (options.metricsBind) {
      this.#servers.metrics = new HttpServerRunnable({
        name: 'metrics',
        bind: options.metricsBind,
        handler: metricsHandler(this.metrics.registry),
        logger: this.logger,
      });
      this.#groups.http.add(this.#servers.metrics);
    }
    if (options.healthProbeBind) {
      const handler = healthProbeHandler({
        healthz: this.#healthz,
        readyz: this.#readyz,
        known: () => this.#knownResources(),
        explain: (r, nn, signal, cluster) => this.explain(r, nn, { signal, cluster }),
        ...(options.dashboard ? { dashboard: this.#dashboardSource() } : {}),
      });
      this.#servers.healthProbe = new HttpServerRunnable({
        name: 'health-probe',
        bind: options.healthProbeBind,
        handler,
        logger: this.logger,
      });
      this.#groups.http.add(this.#servers.healthProbe);
    }
    this.#elected = new Promise<void>((resolve) => (this.#resolveElected = resolve));
  }

  get controllerMetrics(): ControllerMetrics {
    return this.metrics.controller;
  }

  get workqueueMetrics(): WorkqueueMetricsProvider {
    return this.metrics.workqueue;
  }

  /** Reads that bypass the cache. */
  get apiReader(): ManagerClient['apiReader'] {
    return this.client.apiReader;
  }

  /** The shared informer of a kind, created on first use; it starts with the cache (or at once if running). */
  async getInformer<T extends KubeObject>(
    resource: ResourceDescriptor<T>,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<SharedIndexInformer<T>> {
    options.signal?.throwIfAborted();
    return this.#cache.informerFor(resource);
  }

  /**
   * Adds a field index to a kind's shared informer, for `client.list(kind, { matchingFields: { [field]: v } })`.
   * Values are namespaced (`ns/v` and `__all_namespaces/v`), so a namespaced list sees only its namespace.
   */
  indexField<T extends KubeObject>(resource: ResourceDescriptor<T>, field: string, extract: (obj: T) => readonly string[]): void {
    this.#cache.indexField(resource, field, extract);
  }

  /** Registers a runnable: `needLeaderElection() === false` runs on every replica, others only on the leader. */
  add(runnable: Runnable): void {
    if (runnable instanceof Controller) this.#controllers.push(runnable as Controller<unknown>);
    if (this.#internal.signal.aborted) {
      this.logger.warn({}, 'runnable added to a stopped manager; it will not run');
      return;
    }
    if (runnable.needLeaderElection?.() === false) {
      this.#groups.others.add(runnable);
    } else {
      this.#leaderRunnables.push(runnable);
      this.#groups.leader.add(runnable);
    }
  }

  #newGroup(name: string): RunnableGroup {
    return new RunnableGroup({ name, logger: this.logger, onError: (err) => this.#fail(err) });
  }

  /**
   * Registers a webhook server: it starts with the HTTP servers and the caches wait until it listens
   * (an informer's list may need a conversion webhook to answer), and it stops after the caches.
   */
  addWebhookServer(server: WebhookServerRunnable): void {
    this.#beforeStart('addWebhookServer');
    this.#webhookServers.push(server);
    this.#groups.http.add(server);
  }

  /**
   * The controllers' reconcile gate. With leader election, a leader-elected controller's request is
   * admitted only while the elector's fence is open (checked now, synchronously: after a pause the
   * first reconcile is refused even before any timer ran). With sharding, requests of namespaces
   * outside the owned shards are dropped.
   */
  admitReconcile(req: NamespacedName, runnable: Runnable): Admission | undefined {
    if (this.options.leaderElection && runnable.needLeaderElection?.() !== false && !this.#leaderElection?.isLeading()) return undefined;
    return this.#gate ? this.#gate.admit(req) : admittedAlways;
  }

  /** What cuts a write in flight: the loss of leadership (this term's), or of the shard of its namespace. */
  #writeSignal(w: WriteAttempt): AbortSignal | undefined {
    const leadership = this.options.leaderElection ? this.#leadershipLost.signal : undefined;
    const shard = this.#gate?.signalOf(w.namespace);
    return leadership && shard ? AbortSignal.any([leadership, shard]) : (leadership ?? shard);
  }

  /**
   * The write fence: once this manager has led, a write made while its fence is closed (checked now,
   * so a process just woken from a pause refuses before any timer ran) is refused; so is a write in a
   * namespace whose shard was lost and not owned again.
   */
  #refuseWrite(w: WriteAttempt): Error | undefined {
    const object = `${w.resource.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name}${w.subresource ? `/${w.subresource}` : ''}`;
    const le = this.options.leaderElection;
    if (le && this.#led && !this.#leaderElection?.isLeading()) {
      return new WriteFencedError(
        'leadership-lost',
        w.verb,
        object,
        `this replica no longer leads: lease ${le.namespace}/${le.id} was not renewed within ${le.renewDeadlineMs} ms`,
      );
    }
    if (this.options.staleness?.guardDeletes && (w.verb === 'delete' || w.verb === 'deletecollection')) {
      const report = this.#staleness?.report(w.resource);
      if (report?.stale) return new WriteFencedError('cache-stale', w.verb, object, `the cache of ${describeStale(report)}`);
    }
    const shard = this.#gate?.lostShardOf(w.namespace);
    if (shard !== undefined) {
      return new WriteFencedError('shard-lost', w.verb, object, `shard ${shard} of namespace ${w.namespace} was lost by this replica`);
    }
    return undefined;
  }

  /** The shards this replica owns now, ascending (empty without sharding). */
  ownedShards(): number[] {
    return this.#sharding?.owned() ?? [];
  }

  /** The shard of a namespace (sharded by namespace) or a cluster's name (by cluster); undefined without sharding. */
  shardOf(key: string): number | undefined {
    return this.#shardKey?.(key);
  }

  /**
   * Tells `listener` of each shard this replica opens (its requests are admitted from then on) and
   * closes (given up or lost), and at once of those open now, until `signal` aborts. A fleet sharded
   * by cluster engages exactly the clusters of its open shards this way. A no-op without sharding.
   */
  watchShards(listener: { opened(shard: number): void; closed(shard: number): void }, signal: AbortSignal): void {
    this.#sharding?.watch(listener, signal);
  }

  registerControllerName(name: string): void {
    if (this.#names.has(name)) {
      throw new InvalidOptionError(
        'name',
        `controller with name ${JSON.stringify(name)} already exists. Controller names must be unique to avoid multiple controllers reporting the same metric. This validation can be disabled via the skipNameValidation option`,
      );
    }
    this.#names.add(name);
  }

  addHealthzCheck(name: string, check: HealthCheck): void {
    this.#beforeStart('addHealthzCheck');
    this.#healthz.add(name, check);
  }

  addReadyzCheck(name: string, check: HealthCheck): void {
    this.#beforeStart('addReadyzCheck');
    this.#readyz.add(name, check);
  }

  /**
   * Why is this object not converged? A report from what this process knows: the cached object
   * (generation vs `status.observedGeneration`, conditions that are not True, pending finalizers) and
   * what each of this manager's controllers that reconciles it (its `for` kind), or its controller
   * owner (`owns`), knows about that request. An object the cache holds costs no API call. Also served
   * as `GET /debug/converge/<group>/<version>/<plural>/[<namespace>/]<name>[?cluster=<name>]` on the
   * health-probe server. With `cluster`, the object is a member cluster's (see `explainClusters`),
   * read from that member's cache, and the controllers' requests carry the cluster; a cluster not
   * engaged here rejects with `ClusterNotEngagedError` (`CONVERGE_CLUSTER_NOT_ENGAGED`).
   */
  explain<T extends KubeObject>(
    resource: ResourceDescriptor<T>,
    nn: NamespacedName,
    options: { signal?: AbortSignal | undefined; cluster?: string | undefined } = {},
  ): Promise<ConvergeReport> {
    const { cluster } = options;
    const sharding = this.options.sharding;
    const shardOf = this.#sharding && sharding?.by === (cluster === undefined ? 'namespace' : 'cluster') ? this.#sharding : undefined;
    const input = {
      resource: resource as ResourceDescriptor,
      nn,
      clock: this.clock,
      signal: options.signal,
      // Sharded by cluster, a namespace has no shard (and unsharded by cluster, a cluster has none).
      shardOf: shardOf && ((key: string) => shardOf.report(key)),
    };
    if (cluster === undefined) {
      const multiCluster = new Set(this.#clusters.flatMap((c) => c.controllers()));
      const controllers = this.#controllers.filter((c) => !multiCluster.has(c));
      return explainObject({ ...input, cache: this.#cache, apiReader: this.#rest, controllers });
    }
    const member = this.#clusters.map((c) => c.get(cluster)).find((m) => m !== undefined);
    if (!member) return Promise.reject(this.#notEngaged(cluster));
    const host = member.manager;
    return explainObject({ ...input, cluster, cache: host.#cache, apiReader: host.#rest, controllers: member.controllers });
  }

  /**
   * Lets `explain` answer for the objects of member clusters: a fleet registers its engaged clusters
   * and its controllers here. @extension
   */
  explainClusters(clusters: ExplainClusters): void {
    this.#clusters.push(clusters);
  }

  #notEngaged(cluster: string): ClusterNotEngagedError {
    const shard = this.options.sharding?.by === 'cluster' ? this.#sharding?.report(cluster) : undefined;
    if (shard && !shard.ownedHere) {
      const owner =
        shard.owner === undefined
          ? 'which no replica owns now (it is being handed over)'
          : `owned by replica ${JSON.stringify(shard.owner)} — ask that replica's /debug/converge`;
      return new ClusterNotEngagedError(cluster, `not engaged by this replica: it is in shard ${shard.shard}, ${owner}`);
    }
    const engaged = [...new Set(this.#clusters.flatMap((c) => c.names()))].sort();
    return new ClusterNotEngagedError(cluster, `no cluster of that name is engaged here (engaged: ${engaged.join(', ') || 'none'})`);
  }

  /** What the dashboard reads: the registry, the controllers, the cache's informers and `explain`. */
  #dashboardSource(): DashboardSource {
    return {
      registry: this.metrics.registry,
      controllers: () => this.#controllers,
      informers: () => this.#informers(),
      clusters: () =>
        this.#clusters.flatMap((c) =>
          c.names().flatMap((name) => {
            const member = c.get(name);
            return member ? [{ name, informers: member.manager.#informers(), controllers: member.controllers }] : [];
          }),
        ),
      explain: (r, nn, signal, cluster) => this.explain(r, nn, { signal, cluster }),
      clock: this.clock,
    };
  }

  #informers(): { resource: ResourceDescriptor; informer: SharedIndexInformer<KubeObject> }[] {
    return this.#cache.resources().map((resource) => ({ resource, informer: this.#cache.informerFor(resource) }));
  }

  /** The kinds this manager knows: its controllers' `for` and `owns` kinds and its cache's. */
  #knownResources(): ResourceDescriptor[] {
    const out: ResourceDescriptor[] = [...this.#cache.resources()];
    for (const c of this.#controllers) {
      if (c.forResource) out.push(c.forResource);
      out.push(...c.ownedResources);
    }
    return out;
  }

  /** A recorder of `events.k8s.io/v1` Events reported by `name`. Recording never throws or blocks. */
  getEventRecorder(name: string): EventRecorder {
    return this.#events.recorder(name);
  }

  /**
   * Resolves once this manager leads (at once after start without leader election); stays pending
   * for a manager that stops before it ever won the lease.
   */
  elected(): Promise<void> {
    return this.#elected;
  }

  /** Whether this manager leads now: its fence is open (without leader election: from start until the stop begins). */
  isLeader(): boolean {
    if (this.#leaderElection) return this.#leaderElection.isLeading();
    return this.#run !== undefined && !this.#internal.signal.aborted;
  }

  /** Base URLs of the endpoints once bound, e.g. `{ metrics: 'http://127.0.0.1:40321' }`. */
  async listening(): Promise<{ metrics?: string; healthProbe?: string }> {
    const [metrics, healthProbe] = await Promise.all([this.#servers.metrics?.listening(), this.#servers.healthProbe?.listening()]);
    return { ...(metrics ? { metrics } : {}), ...(healthProbe ? { healthProbe } : {}) };
  }

  /**
   * Runs until `signal` aborts (or `shutdown()`), then stops gracefully. Resolves after a clean stop;
   * rejects with the first runnable failure, `LeaderElectionLostError`, or `ShutdownTimeoutError`.
   */
  start(signal?: AbortSignal): Promise<void> {
    if (this.#run) return Promise.reject(new AlreadyStartedError('manager'));
    this.#run = this.#runAndStop(signal);
    return this.#run;
  }

  /** Stops the manager and waits for the stop; safe to call at any time, any number of times. */
  async shutdown(): Promise<void> {
    this.#internal.abort(new Error('manager shut down'));
    // A failure of the run is start()'s to report (its caller awaits it); shutdown only waits for
    // the stop, so that cleanup code (finally blocks, TestEnv.stop) never throws someone else's error.
    if (this.#run) await this.#run.catch(() => {});
    else this.#ownedRest?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.shutdown();
  }

  #beforeStart(what: string): void {
    if (this.#run) throw new InvalidOptionError(what, 'health checks and webhook servers are added before start()');
  }

  #fail(err: unknown): void {
    if (this.#failure === undefined) {
      this.#failure = err;
      this.logger.error({ err }, 'runnable failed; stopping the manager');
    }
    this.#internal.abort(err);
  }

  async #runAndStop(signal: AbortSignal | undefined): Promise<void> {
    const internal = this.#internal.signal;
    const onAbort = (): void => this.#internal.abort(signal!.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const leCtl = new AbortController();
    let electorDone: Promise<void> = Promise.resolve();
    const shardingCtl = new AbortController();
    let shardingDone: Promise<void> = Promise.resolve();
    try {
      this.logger.info({}, 'starting manager');
      this.#groups.http.start();
      await untilAborted(Promise.all([...Object.values(this.#servers), ...this.#webhookServers].map((s) => s.listening())), internal);
      this.#groups.caches.start();
      await this.#cache.waitForSync({ signal: internal });
      internal.throwIfAborted();
      this.#groups.others.start();
      if (this.#sharding) shardingDone = this.#sharding.run(shardingCtl.signal);
      const le = this.options.leaderElection;
      if (le) {
        this.#leaderElection = new LeaderElectionRunnable({
          election: le,
          client: this.#rest,
          metrics: this.metrics,
          clock: this.clock,
          logger: this.logger,
          onStartedLeading: () => this.#startLeading(),
          onLost: (err) => {
            // Cut the leader runnables and their writes in flight now, before anyone else may lead.
            this.#leadershipLost.abort(err);
            this.#groups.leader.abort(err);
            if (le.onLoss === 'exit') {
              this.#fail(err);
              return;
            }
            this.logger.error({ err }, 'leadership lost; stopping the leader runnables, then campaigning again');
            return this.#groups.leader.stop(err);
          },
        });
        electorDone = this.#leaderElection.run(leCtl.signal);
      } else {
        this.#startLeading();
      }
      await whenAborted(internal);
    } catch (err) {
      if (!internal.aborted) this.#fail(err);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    const g = this.#groups;
    const timedOut = await stopInOrder({
      groups: [g.others, g.leader, g.caches, g.http],
      finally: () => this.#events.flush(),
      // Leader runnables cut at a loss are not waited for when the manager exits for it.
      graceMs: this.options.leaderElection?.onLoss === 'exit' && this.#leaderElection?.lost() ? 0 : this.options.gracefulShutdownTimeoutMs,
      reason: internal.reason,
      clock: this.clock,
    });
    leCtl.abort(new Error('manager stopped'));
    // Shard Leases are written free only now that no controller reconciles any more.
    shardingCtl.abort(new Error('manager stopped'));
    await Promise.all([electorDone, shardingDone]);
    this.#ownedRest?.close();
    this.logger.info({}, 'manager stopped');
    if (this.#failure !== undefined) throw this.#failure;
    if (timedOut) throw timedOut;
  }

  /** Starts a term: the leader runnables, afresh (a new group, a new write signal) after a term that was lost. */
  #startLeading(): void {
    this.#led = this.#leaderElection !== undefined;
    if (this.#groups.leader.signal.aborted) {
      // Won while the manager stops: its stop already took the last term's group; start nothing.
      if (this.#internal.signal.aborted) return;
      this.#leadershipLost = new AbortController();
      this.#groups.leader = this.#newGroup('leader-election');
      for (const r of this.#leaderRunnables) this.#groups.leader.add(r);
    }
    this.#groups.leader.start();
    this.#resolveElected();
  }
}

/** A runnable that serves webhooks; `listening()` resolves once it accepts connections, or rejects with its bind error. @extension */
export interface WebhookServerRunnable extends Runnable {
  listening(): Promise<string>;
}

/** One stale kind for a message: how stale, and the versions compared. */
function describeStale(r: StalenessReport): string {
  const seconds = ((r.stalenessMs ?? 0) / 1000).toFixed(1);
  return `${r.resource} is ${seconds} s stale (cache at resourceVersion ${r.cacheResourceVersion}, server at ${r.serverResourceVersion ?? 'unknown'})`;
}

/** The admission of a reconcile without a gate: only the controller's stop ends it. */
const admittedAlways: Admission = Object.freeze({ done: () => {} });
