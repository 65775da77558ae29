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
 * loss). A loss also aborts the signal of every admission into that shard, so its reconciles in flight
 * (and the writes they have on the wire) are cut at that instant; a release lets them finish.
 */
import type { NamespacedName } from '../../meta/index.js';
import type { Admission } from '../../controller/index.js';

/** Admits only reconciles of namespaces in shards this replica owns, and drains a shard before it is given up. */
export class ShardGate {
  /** The request's shard, or undefined for a request that is not sharded (it always passes). */
  readonly #shardOf: (req: NamespacedName) => number | undefined;
  readonly #open = new Set<number>();
  readonly #inFlight = new Map<number, number>();
  readonly #drained = new Map<number, Array<() => void>>();
  readonly #lost = new Set<number>();
  /** Per open shard: aborted when it is lost; a fresh one each time it opens. */
  readonly #tenure = new Map<number, AbortController>();

  constructor(options: { shardOf: (req: NamespacedName) => number | undefined }) {
    this.#shardOf = options.shardOf;
  }

  /** The admission of a request (its signal aborts if its shard is lost), or undefined: drop the request. */
  admit(req: NamespacedName): Admission | undefined {
    const shard = this.#shardOf(req);
    if (shard === undefined) return unsharded;
    if (!this.#open.has(shard)) return undefined;
    const tenure = this.#tenure.get(shard)!;
    this.#inFlight.set(shard, (this.#inFlight.get(shard) ?? 0) + 1);
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      this.#settled(shard);
    };
    return { signal: tenure.signal, done };
  }

  /** One reconcile of `shard` settled: the last one lets a close waiting for the shard to drain go on. */
  #settled(shard: number): void {
    const left = this.#inFlight.get(shard)! - 1;
    if (left > 0) {
      this.#inFlight.set(shard, left);
      return;
    }
    this.#inFlight.delete(shard);
    for (const resolve of this.#drained.get(shard) ?? []) resolve();
    this.#drained.delete(shard);
  }

  open(shard: number): void {
    this.#lost.delete(shard);
    this.#open.add(shard);
    const tenure = this.#tenure.get(shard);
    if (!tenure || tenure.signal.aborted) this.#tenure.set(shard, new AbortController());
  }

  /**
   * Closes a shard whose Lease may already be another's: its reconciles in flight see their signal
   * abort now, and its namespaces count as lost until it opens again. Resolves like `close`.
   */
  lose(shard: number): Promise<void> {
    this.#lost.add(shard);
    this.#tenure.get(shard)?.abort(new Error(`shard ${shard} was lost by this replica`));
    return this.close(shard);
  }

  /** Aborts when `namespace`'s shard is lost; undefined for a namespace of no shard or of a shard not held. */
  signalOf(namespace: string): AbortSignal | undefined {
    if (!namespace) return undefined;
    const shard = this.#shardOf({ namespace, name: '' });
    return shard !== undefined && this.#open.has(shard) ? this.#tenure.get(shard)?.signal : undefined;
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

/** The admission of a request that is not sharded: only the controller's stop ends it. */
const unsharded: Admission = Object.freeze({ done: () => {} });
