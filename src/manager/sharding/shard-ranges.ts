/**
 * Shard arithmetic for the manager's sharding: `shards` ranges that split the 64-bit hash space
 * `[0, 2^64)` of `object.metadata.namespace` (the API server's sharded list/watch, KEP-5866), the
 * `shardSelector` text of a set of them, and the shard a namespace falls in. The namespace hash is
 * meta's `namespaceShardHash` (FNV-1a 64 multiplied by 2^64/φ), the one the API server filters by.
 * Invariant: the ranges are contiguous, disjoint, cover the whole space, and `namespaceSharder`
 * agrees with Converge's API server's matching (`start <= hash < end`, same hash), so the shard whose
 * informer delivers an object is the shard that admits its reconcile.
 */
import { InvalidOptionError } from '../../meta/index.js';
import { namespaceShardHash } from '../../meta/internal.js';

/** The end (exclusive) of the hash space. */
export const HASH_SPACE_END = 1n << 64n;

/** A slice `[start, end)` of the 64-bit namespace hash space: one shard. */
export interface HashRange {
  /** Inclusive. */
  readonly start: bigint;
  /** Exclusive. */
  readonly end: bigint;
}

/** The `shards` ranges, shard `i` being `[floor(i * 2^64 / shards), floor((i + 1) * 2^64 / shards))`. */
export function shardRanges(shards: number): HashRange[] {
  if (!Number.isSafeInteger(shards) || shards < 1)
    throw new InvalidOptionError('sharding.shards', `must be a positive integer, got ${String(shards)}`);
  const n = BigInt(shards);
  return Array.from({ length: shards }, (_, i) => ({ start: (BigInt(i) * HASH_SPACE_END) / n, end: (BigInt(i + 1) * HASH_SPACE_END) / n }));
}

const hex = (v: bigint): string => `0x${v.toString(16)}`;

/** The selector of the union of `ranges` over the namespace: `shardRange(object.metadata.namespace, '0x…', '0x…')` terms joined by `||`. */
export function namespaceShardSelector(ranges: readonly HashRange[]): string {
  if (ranges.length === 0) throw new RangeError('a shard selector needs at least one range');
  return ranges.map((r) => `shardRange(object.metadata.namespace, '${hex(r.start)}', '${hex(r.end)}')`).join('||');
}

/** The shard (index into `ranges`) holding `hash`. */
export function shardOfHash(ranges: readonly HashRange[], hash: bigint): number {
  // The ranges are equal to within one, so the proportional guess is off by at most one either way.
  let i = Number((hash * BigInt(ranges.length)) / HASH_SPACE_END);
  while (i > 0 && hash < ranges[i]!.start) i--;
  while (i < ranges.length - 1 && hash >= ranges[i]!.end) i++;
  return i;
}

/** `shardOfHash` of a namespace's hash, memoised: namespaces are few and asked about on every reconcile. */
export function namespaceSharder(ranges: readonly HashRange[]): (namespace: string) => number {
  const memo = new Map<string, number>();
  return (namespace) => {
    let shard = memo.get(namespace);
    if (shard === undefined) memo.set(namespace, (shard = shardOfHash(ranges, namespaceShardHash(namespace))));
    return shard;
  };
}
