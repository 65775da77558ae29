/**
 * Shard ownership in `explain`, for a sharded manager: which shard an object's namespace is in and
 * which replica owns it. A replica that does not own the shard does not reconcile the object, so
 * whatever its controllers remember of it (failures, next attempts) is from before a handover and no
 * longer true: the report drops it and says where to ask instead.
 */

/** The shard of an object's namespace, as this replica sees its Leases. */
export interface ShardReport {
  shard: number;
  /** The replica holding the shard's Lease; absent while none validly does (a handover). */
  owner?: string;
  /** Whether this replica owns it (and so reconciles the object). */
  ownedHere: boolean;
}

/** Why this replica cannot explain the object's reconciles, or undefined when it owns the shard. */
export function shardElsewhereReason(namespace: string, s: ShardReport): string | undefined {
  if (s.ownedHere) return undefined;
  const where = `namespace ${namespace} is in shard ${s.shard}`;
  return s.owner === undefined
    ? `this replica does not reconcile it: ${where}, which no replica owns now (it is being handed over)`
    : `this replica does not reconcile it: ${where}, owned by replica ${JSON.stringify(s.owner)} — ask that replica's /debug/converge`;
}
