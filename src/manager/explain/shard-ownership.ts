/**
 * Shard ownership in `explain`, for a sharded manager: which shard an object's namespace (or, sharded
 * by cluster, its cluster) is in and which replica owns it. A replica that does not own the shard does not reconcile the object, so
 * whatever its controllers remember of it (failures, next attempts) is from before a handover and no
 * longer true: the report drops it and says where to ask instead — but judges the object itself,
 * read from the API server, so an object converged on its owner reads converged here too. A replica
 * that owns the shard drops what its controllers remember from before it began serving the shard
 * (a retry that was due while another replica owned it was dropped unreconciled, and stays
 * `waiting-retry` in the tracker).
 */

/** The shard of an object's namespace (or cluster, sharded by cluster), as this replica sees its Leases. */
export interface ShardReport {
  shard: number;
  /** The replica holding the shard's Lease; absent while none validly does (a handover). */
  owner?: string;
  /** Whether this replica owns it (and so reconciles the object). */
  ownedHere: boolean;
  /** When this replica began serving the shard (its cache synced, its gate opened), host clock ms; absent until then. */
  servingSinceMs?: number;
}

/**
 * Why this replica cannot explain the object's reconciles, or undefined when it owns the shard;
 * `sharded` is what was hashed, e.g. `namespace team-a` or `cluster prod-1`.
 */
export function shardElsewhereReason(sharded: string, s: ShardReport): string | undefined {
  if (s.ownedHere) return undefined;
  const where = `${sharded} is in shard ${s.shard}`;
  return s.owner === undefined
    ? `this replica does not reconcile it: ${where}, which no replica owns now (it is being handed over)`
    : `this replica does not reconcile it: ${where}, owned by replica ${JSON.stringify(s.owner)} — ask that replica's /debug/converge`;
}

/**
 * Whether a controller's state of a request predates this replica serving its shard: settled (not
 * queued, not reconciling) and last finished before `servingSinceMs` (or never serving yet).
 */
export function predatesServing(state: { phase: string; lastFinishedAt?: number | undefined }, shard: ShardReport): boolean {
  if (state.phase === 'queued' || state.phase === 'reconciling') return false;
  return (state.lastFinishedAt ?? -Infinity) < (shard.servingSinceMs ?? Infinity);
}
