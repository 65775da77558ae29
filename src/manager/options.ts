/**
 * Manager options, resolved once by one pure function into a frozen `ResolvedManagerOptions`
 * (defaults in one table, units in the names, `??` fallbacks). Deviation from controller-runtime:
 * the metrics endpoint is off unless `metricsBindAddress` is given (controller-runtime binds `:8080`
 * on every interface by default — a library should not open a port by surprise; pass `':8080'`).
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { InvalidOptionError, jsonLogger, realClock, type Clock, type Logger } from '../meta/index.js';
import { requireDuration } from '../meta/internal.js';
import type { Client, RestConfig } from '../client/index.js';
import type { CacheOptions } from './cache/index.js';
import { validateLeaderElectionTimings } from './leaderelection/index.js';
import { parseBindAddress } from './http/index.js';

/** Whether and how a manager elects a leader: the lease's name and namespace, the identity, and the timings. */
export interface LeaderElectionOptions {
  /** Name of the Lease. Required. */
  id: string;
  /** Default: the pod's namespace from the service-account mount (createManager reads it); required outside a cluster. */
  namespace?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Release the Lease on a clean stop so a successor need not wait for it to expire. Default false. */
  releaseOnCancel?: boolean;
  /** Default `<hostname>_<uuid>`. */
  identity?: string;
  /**
   * What losing the lease does. `'exit'` (default, as controller-runtime): the manager stops and
   * `start` rejects with `LeaderElectionLostError`. `'rejoin'`: the leader runnables are stopped (their
   * reconciles' signals abort, the client refuses writes), the manager waits until they returned, then
   * campaigns again and starts them afresh once it wins. Each leader runnable must then be startable
   * again after its previous `start` returned; controllers are, with fresh queues.
   */
  onLoss?: 'exit' | 'rejoin';
}

/**
 * Horizontal scale: the namespaces are split into `shards` hash ranges, each owned by one replica at
 * a time through a Lease; a replica watches and reconciles only the namespaces of its shards.
 * Cluster-scoped kinds are not sharded (see docs/manager.md).
 */
export interface ShardingOptions {
  /** How many shards the namespace hash space is split into, e.g. 16. Required. */
  shards: number;
  /** Lease name prefix: `<id>-shard-<i>` per shard, `<id>-member-<identity>` per replica. Required. */
  id: string;
  /** Where the Leases live. Default: the pod's namespace (as for leader election); required outside a cluster. */
  namespace?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Default `<hostname>_<uuid>`. */
  identity?: string;
  /**
   * What is sharded: `'namespace'` (default) splits the namespaces, and the cache watches only those
   * of the shards held; `'cluster'` splits the member clusters of a fleet (multi-cluster controllers'
   * requests carry a `cluster`), and the cache is not split.
   */
  by?: 'namespace' | 'cluster';
}

/**
 * How the manager watches its informers for staleness (a watch that stopped delivering without
 * failing): a cheap consistent read per cached kind every `consistentReadMs`, the gauge
 * `converge_informer_staleness_seconds`, and the `/readyz` check `informer-staleness`.
 */
export interface StalenessOptions {
  /** How often each kind's collection resourceVersion is read (LIST limit=1). At least 5 000. Default 5 000. */
  consistentReadMs?: number;
  /** Staleness past which a kind counts as stale (readiness fails, guarded deletes are refused). Default 10 000. */
  staleAfterMs?: number;
  /** Refuse deletes through `mgr.client` of a kind whose cache is stale (`WriteFencedError`, `why: 'cache-stale'`). Default false. */
  guardDeletes?: boolean;
}

/** How a manager runs: its client, cache, leader election, sharding, endpoints, shutdown timeout, clock and logger. */
export interface ManagerOptions {
  /** A kubeconfig file (kubectl's rules; `KUBECONFIG` and `~/.kube/config` when nothing is given). */
  kubeconfig?: string;
  /** An already resolved config; wins over `kubeconfig`. */
  config?: RestConfig;
  /** A ready client; wins over both (then `rest_client_requests_total` stays empty: the manager cannot hook it). */
  client?: Client;
  cache?: CacheOptions;
  leaderElection?: LeaderElectionOptions;
  sharding?: ShardingOptions;
  /** Informer staleness measurement (on by default); `false` turns it off. */
  staleness?: StalenessOptions | false;
  /** `host:port` for `/metrics`; `'0'` or absent: off. Port 0 picks a free port (see `mgr.listening()`). */
  metricsBindAddress?: string;
  /** `host:port` for `/healthz` and `/readyz`; `'0'` or absent: off. */
  healthProbeBindAddress?: string;
  /**
   * Serve a live dashboard page at `/dashboard` on the health-probe server (controllers, caches, objects
   * not converged). Default false: like `/debug/converge`, it shows object names and error messages.
   */
  dashboard?: boolean;
  /** Collect Node's process metrics (CPU, memory, event loop lag) on the manager's registry; default true. */
  processMetrics?: boolean;
  /** How long a stop waits for runnables; 0 = not at all, `Infinity` = forever. Default 30 s. */
  gracefulShutdownTimeoutMs?: number;
  clock?: Clock;
  /** Default: JSON lines on stderr at `info`. */
  logger?: Logger;
}

/** The defaults `resolveManagerOptions` fills in, in one table (durations in milliseconds). */
export const MANAGER_DEFAULTS = Object.freeze({
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
  releaseOnCancel: false,
  onLoss: 'exit',
  gracefulShutdownTimeoutMs: 30_000,
  consistentReadMs: 5_000,
  staleAfterMs: 10_000,
  /** How often the informers' resourceVersions are sampled for the age of their newest event. */
  stalenessSampleMs: 1_000,
});

/** The staleness options with every default filled in. */
export interface ResolvedStaleness {
  readonly consistentReadMs: number;
  readonly staleAfterMs: number;
  readonly sampleMs: number;
  readonly guardDeletes: boolean;
}

/** The leader-election options with every default filled in. */
export interface ResolvedLeaderElection {
  readonly id: string;
  readonly namespace: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  readonly releaseOnCancel: boolean;
  readonly identity: string;
  readonly onLoss: 'exit' | 'rejoin';
}

/** The sharding options with every default filled in. */
export interface ResolvedSharding {
  readonly shards: number;
  readonly id: string;
  readonly namespace: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  readonly identity: string;
  readonly by: 'namespace' | 'cluster';
}

/** The manager options with every default filled in, frozen. */
export interface ResolvedManagerOptions {
  readonly kubeconfig: string | undefined;
  readonly config: RestConfig | undefined;
  readonly client: Client | undefined;
  readonly cache: CacheOptions;
  readonly leaderElection: ResolvedLeaderElection | undefined;
  readonly sharding: ResolvedSharding | undefined;
  readonly staleness: ResolvedStaleness | undefined;
  readonly metricsBind: { host: string | undefined; port: number } | undefined;
  readonly healthProbeBind: { host: string | undefined; port: number } | undefined;
  readonly dashboard: boolean;
  readonly processMetrics: boolean;
  readonly gracefulShutdownTimeoutMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
}

const bind = (path: string, address: string | undefined) =>
  address === undefined || address === '' || address === '0' ? undefined : Object.freeze(parseBindAddress(path, address));

/** Fills in every default of `ManagerOptions` and validates them, returning a frozen value. */
export function resolveManagerOptions(o: ManagerOptions = {}): ResolvedManagerOptions {
  for (const renamed of ['metricsAddr', 'leaderElectionID', 'gracefulShutdownTimeout'] as const) {
    if (renamed in o) throw new InvalidOptionError(renamed, 'not an option of createManager; see ManagerOptions (durations end in Ms)');
  }
  const le = o.leaderElection;
  let leaderElection: ResolvedLeaderElection | undefined;
  if (le) {
    if (!le.id) throw new InvalidOptionError('leaderElection.id', 'is required when leader election is on');
    if (!le.namespace) throw new InvalidOptionError('leaderElection.namespace', 'is required when leader election is on');
    if (le.identity === '')
      throw new InvalidOptionError('leaderElection.identity', 'must not be empty (leave it out for <hostname>_<uuid>)');
    leaderElection = Object.freeze({
      id: le.id,
      namespace: le.namespace,
      leaseDurationMs: le.leaseDurationMs ?? MANAGER_DEFAULTS.leaseDurationMs,
      renewDeadlineMs: le.renewDeadlineMs ?? MANAGER_DEFAULTS.renewDeadlineMs,
      retryPeriodMs: le.retryPeriodMs ?? MANAGER_DEFAULTS.retryPeriodMs,
      releaseOnCancel: le.releaseOnCancel ?? MANAGER_DEFAULTS.releaseOnCancel,
      identity: le.identity ?? `${hostname()}_${randomUUID()}`,
      onLoss: le.onLoss ?? MANAGER_DEFAULTS.onLoss,
    });
    if (leaderElection.onLoss !== 'exit' && leaderElection.onLoss !== 'rejoin')
      throw new InvalidOptionError('leaderElection.onLoss', `must be 'exit' or 'rejoin', got ${JSON.stringify(le.onLoss)}`);
    validateLeaderElectionTimings('leaderElection', leaderElection);
  }
  const sharding = o.sharding && resolveSharding(o.sharding);
  if (o.dashboard && bind('healthProbeBindAddress', o.healthProbeBindAddress) === undefined)
    throw new InvalidOptionError('dashboard', 'is served on the health-probe server: give healthProbeBindAddress too');
  const grace = o.gracefulShutdownTimeoutMs ?? MANAGER_DEFAULTS.gracefulShutdownTimeoutMs;
  if (grace !== Infinity) requireDuration('gracefulShutdownTimeoutMs', grace);
  return Object.freeze({
    kubeconfig: o.kubeconfig,
    config: o.config,
    client: o.client,
    cache: o.cache ?? {},
    leaderElection,
    sharding,
    staleness: o.staleness === false ? undefined : resolveStaleness(o.staleness ?? {}),
    metricsBind: bind('metricsBindAddress', o.metricsBindAddress),
    healthProbeBind: bind('healthProbeBindAddress', o.healthProbeBindAddress),
    dashboard: o.dashboard ?? false,
    processMetrics: o.processMetrics ?? true,
    gracefulShutdownTimeoutMs: grace,
    clock: o.clock ?? realClock,
    logger: o.logger ?? jsonLogger(),
  });
}

function resolveStaleness(st: StalenessOptions): ResolvedStaleness {
  const consistentReadMs = st.consistentReadMs ?? MANAGER_DEFAULTS.consistentReadMs;
  const staleAfterMs = st.staleAfterMs ?? MANAGER_DEFAULTS.staleAfterMs;
  requireDuration('staleness.consistentReadMs', consistentReadMs);
  requireDuration('staleness.staleAfterMs', staleAfterMs);
  // One cheap read per kind every 5 s at most: the server's cost stays bounded by the kinds cached.
  if (consistentReadMs < 5_000)
    throw new InvalidOptionError('staleness.consistentReadMs', `must be at least 5000, got ${consistentReadMs}`);
  // A healthy informer is confirmed once per read: a threshold below the read period would flap.
  if (staleAfterMs <= consistentReadMs) {
    throw new InvalidOptionError(
      'staleness.staleAfterMs',
      `must be greater than consistentReadMs (${consistentReadMs}), got ${staleAfterMs}`,
    );
  }
  return Object.freeze({
    consistentReadMs,
    staleAfterMs,
    sampleMs: MANAGER_DEFAULTS.stalenessSampleMs,
    guardDeletes: st.guardDeletes ?? false,
  });
}

function resolveSharding(sh: ShardingOptions): ResolvedSharding {
  if (!Number.isSafeInteger(sh.shards) || sh.shards < 1)
    throw new InvalidOptionError('sharding.shards', `must be a positive integer, got ${String(sh.shards)}`);
  if (!sh.id) throw new InvalidOptionError('sharding.id', 'is required when sharding is on');
  if (!sh.namespace) throw new InvalidOptionError('sharding.namespace', 'is required when sharding is on');
  if (sh.by !== undefined && sh.by !== 'namespace' && sh.by !== 'cluster')
    throw new InvalidOptionError('sharding.by', `must be 'namespace' or 'cluster', got ${JSON.stringify(sh.by)}`);
  const resolved = Object.freeze({
    shards: sh.shards,
    id: sh.id,
    namespace: sh.namespace,
    leaseDurationMs: sh.leaseDurationMs ?? MANAGER_DEFAULTS.leaseDurationMs,
    renewDeadlineMs: sh.renewDeadlineMs ?? MANAGER_DEFAULTS.renewDeadlineMs,
    retryPeriodMs: sh.retryPeriodMs ?? MANAGER_DEFAULTS.retryPeriodMs,
    by: sh.by ?? 'namespace',
    identity: sh.identity ?? `${hostname()}_${randomUUID()}`,
  });
  validateLeaderElectionTimings('sharding', resolved);
  return resolved;
}
