/**
 * Shard arithmetic for the manager's sharding: `shards` ranges that split the 64-bit hash space
 * `[0, 2^64)` of `object.metadata.namespace` (the API server's sharded list/watch, KEP-5866), the
 * `shardSelector` text of a set of them, and the shard a namespace falls in. The namespace hash is
 * FNV-1a 64 multiplied by 2^64/φ: raw FNV-1a of names that differ only in their last characters
 * (`team-1`, `team-2`, …) differs only below bit ~53, so equal ranges of it put them all in one
 * shard; the multiplication moves those differences into the top bits, evenly.
 * Invariant: the ranges are contiguous, disjoint, cover the whole space, and `namespaceSharder`
 * agrees with Converge's API server's matching (`start <= hash < end`, same hash), so the shard whose
 * informer delivers an object is the shard that admits its reconcile.
 */
import { InvalidOptionError } from '../../meta/index.js';

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

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = HASH_SPACE_END - 1n;
const encoder = new TextEncoder();

/** 64-bit FNV-1a over the UTF-8 bytes of `value` (the hash KEP-5866 servers shard by). */
export function fnv1a64(value: string): bigint {
  let h = FNV_OFFSET;
  for (const byte of encoder.encode(value)) h = ((h ^ BigInt(byte)) * FNV_PRIME) & MASK;
  return h;
}

/** The shard (index into `ranges`) holding `hash`. */
export function shardOfHash(ranges: readonly HashRange[], hash: bigint): number {
  // The ranges are equal to within one, so the proportional guess is off by at most one either way.
  let i = Number((hash * BigInt(ranges.length)) / HASH_SPACE_END);
  while (i > 0 && hash < ranges[i]!.start) i--;
  while (i < ranges.length - 1 && hash >= ranges[i]!.end) i++;
  return i;
}

/** 2^64 / φ, odd: multiplying by it is Fibonacci hashing. */
const GOLDEN = 0x9e3779b97f4a7c15n;

/**
 * The hash a namespace is sharded by, here and in Converge's API server: FNV-1a 64 times 2^64/φ
 * (mod 2^64). Multiplication carries every low bit upward into the top bits the ranges cut on, and
 * by the golden ratio it spreads an arithmetic run of inputs — what sequential suffixes make of
 * FNV-1a — as evenly as any multiplier can (the three-gap theorem); random names stay random.
 */
export function namespaceHash(namespace: string): bigint {
  return (fnv1a64(namespace) * GOLDEN) & MASK;
}

/** `shardOfHash` of a namespace's hash, memoised: namespaces are few and asked about on every reconcile. */
export function namespaceSharder(ranges: readonly HashRange[]): (namespace: string) => number {
  const memo = new Map<string, number>();
  return (namespace) => {
    let shard = memo.get(namespace);
    if (shard === undefined) memo.set(namespace, (shard = shardOfHash(ranges, namespaceHash(namespace))));
    return shard;
  };
}
