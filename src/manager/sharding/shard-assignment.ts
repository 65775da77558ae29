/**
 * Which shards each live replica should hold: a pure function of the sorted member identities and
 * the shard count, so every replica that sees the same members computes the same answer without
 * talking to the others. Member `k` (in sorted order) gets a contiguous block of shards; the first
 * `shards mod members` blocks are one longer. Invariant: the blocks partition `0..shards-1` and
 * every member gets `floor(shards / members)` or `ceil(shards / members)` shards.
 */

/** The shards `identity` should hold among `members` (which include it), ascending. */
export function assignedShards(identity: string, members: readonly string[], shards: number): number[] {
  const sorted = [...new Set(members)].sort();
  const k = sorted.indexOf(identity);
  if (k < 0) return [];
  const r = sorted.length;
  const base = Math.floor(shards / r);
  const longer = shards % r;
  const start = k * base + Math.min(k, longer);
  const length = base + (k < longer ? 1 : 0);
  return Array.from({ length }, (_, i) => start + i);
}
