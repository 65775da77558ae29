/**
 * Cluster providers: what tells a fleet which clusters exist. A provider runs while the fleet runs and
 * calls `engage` for each cluster it finds and `disengage` for each that goes away; the fleet does the
 * rest (a manager per cluster, sources, indexes). A provider never stops on one bad cluster: it logs it,
 * leaves it disengaged, and goes on with the others.
 */
import type { CacheOptions, Manager } from '../manager/index.js';
import type { Client, RestConfig } from '../client/index.js';
import type { Cluster } from './cluster.js';

/** How to reach a cluster being engaged: a REST config or a ready client, plus its labels. */
export type ClusterConnection = ({ config: RestConfig } | { client: Client }) & {
  /** Labels to select the cluster by (default none). */
  labels?: Readonly<Record<string, string>>;
  /** This cluster's cache options; default the fleet's `cache`. */
  cache?: CacheOptions;
};

/** What a provider drives: the fleet's engage and disengage, and the local manager it runs in. */
export interface ClusterSink {
  /** The fleet's local (hub) manager: its cache and client read the hub's objects. */
  readonly local: Manager;
  /**
   * Registers and engages a cluster, replacing an engaged one of that name (e.g. its kubeconfig
   * changed); undefined when another replica holds it (a fleet sharded by cluster).
   */
  engage(name: string, connection: ClusterConnection): Promise<Cluster | undefined>;
  /** Unregisters and disengages a cluster; a name not known is a no-op. */
  disengage(name: string): Promise<void>;
}

/** Finds clusters and engages them until `signal` aborts. @extension */
export interface ClusterProvider {
  /** Names the provider in logs, e.g. `kubeconfig secrets in fleet-system`. */
  toString(): string;
  /** Runs until `signal` aborts; resolves then. Rejecting stops the fleet (a provider that cannot run at all). */
  run(sink: ClusterSink, signal: AbortSignal): Promise<void>;
}
