/**
 * The gate in front of every reconcile of a sharded manager: a request of a namespace whose shard
 * this replica does not own is dropped unreconciled; an admitted one is counted in flight until it
 * settles. Closing a shard refuses new requests at once and resolves when its in-flight reconciles
 * settled — the coordinator releases a shard's Lease only after that, and opens a shard only after
 * acquiring its Lease, so two replicas never reconcile one namespace at the same time.
 * What a request's shard is comes from the manager: its namespace's (cluster-scoped requests are
 * not sharded and always pass), or, for a fleet sharded by cluster, its cluster's.
 */
import type { NamespacedName } from '../../meta/index.js';

/** Admits only reconciles of namespaces in shards this replica owns, and drains a shard before it is given up. */
export class ShardGate {
  /** The request's shard, or undefined for a request that is not sharded (it always passes). */
  readonly #shardOf: (req: NamespacedName) => number | undefined;
  readonly #open = new Set<number>();
  readonly #inFlight = new Map<number, number>();
  readonly #drained = new Map<number, Array<() => void>>();

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
    this.#open.add(shard);
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
