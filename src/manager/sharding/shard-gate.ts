/**
 * The gate in front of every reconcile of a sharded manager: a request of a namespace whose shard
 * this replica does not own is dropped unreconciled; an admitted one is counted in flight until it
 * settles. Closing a shard refuses new requests at once and resolves when its in-flight reconciles
 * settled — the coordinator releases a shard's Lease only after that, and opens a shard only after
 * acquiring its Lease, so two replicas never reconcile one namespace at the same time.
 * What a request's shard is comes from the manager: its namespace's (cluster-scoped requests are
 * not sharded and always pass), or, for a fleet sharded by cluster, its cluster's. A shard closed
 * because its Lease could not be renewed in time is remembered as lost until it is opened again, so
 * the manager's client can refuse writes in its namespaces (a release, which drains first, is not a
 * loss).
 */
import type { NamespacedName } from '../../meta/index.js';

/** Admits only reconciles of namespaces in shards this replica owns, and drains a shard before it is given up. */
export class ShardGate {
  /** The request's shard, or undefined for a request that is not sharded (it always passes). */
  readonly #shardOf: (req: NamespacedName) => number | undefined;
  readonly #open = new Set<number>();
  readonly #inFlight = new Map<number, number>();
  readonly #drained = new Map<number, Array<() => void>>();
  readonly #lost = new Set<number>();

  constructor(options: { shardOf: (req: NamespacedName) => number | undefined }) {
    this.#shardOf = options.shardOf;
  }

  /** A `done` callback to call once the reconcile settled, or undefined: drop the request. */
  admit(req: NamespacedName): (() => void) | undefined {
    const shard = this.#shardOf(req);
    if (shard === undefined) return () => {};
    if (!this.#open.has(shard)) return undefined;
    this.#inFlight.set(shard, (this.#inFlight.get(shard) ?? 0) + 1);
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      const left = this.#inFlight.get(shard)! - 1;
      if (left > 0) {
        this.#inFlight.set(shard, left);
        return;
      }
      this.#inFlight.delete(shard);
      for (const resolve of this.#drained.get(shard) ?? []) resolve();
      this.#drained.delete(shard);
    };
  }

  open(shard: number): void {
    this.#lost.delete(shard);
    this.#open.add(shard);
  }

  /** Closes a shard whose Lease may already be another's: like `close`, and its namespaces count as lost until it opens again. */
  lose(shard: number): Promise<void> {
    this.#lost.add(shard);
    return this.close(shard);
  }

  /** The shard of `namespace` if this replica lost it and has not owned it again since; undefined otherwise. */
  lostShardOf(namespace: string): number | undefined {
    if (!namespace) return undefined;
    const shard = this.#shardOf({ namespace, name: '' });
    return shard !== undefined && this.#lost.has(shard) ? shard : undefined;
  }

  /** Refuses the shard's requests from now on; resolves once none of them is in flight. */
  close(shard: number): Promise<void> {
    this.#open.delete(shard);
    if (!this.#inFlight.has(shard)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiters = this.#drained.get(shard) ?? [];
      waiters.push(resolve);
      this.#drained.set(shard, waiters);
    });
  }

  isOpen(shard: number): boolean {
    return this.#open.has(shard);
  }
}
