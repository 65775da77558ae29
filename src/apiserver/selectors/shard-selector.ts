/**
 * The `shardSelector` query parameter of sharded list and watch (KEP-5866, alpha in 1.36):
 * `shardRange(object.metadata.uid, '0xSTART', '0xEND')`, several ranges joined by `||`, all over the
 * same field (`object.metadata.uid` or `object.metadata.namespace`). An object belongs to the shard
 * when the hash of that field's value lies in one of the ranges, start inclusive, end exclusive,
 * within the full space `[0x0, 0x10000000000000000)`. A uid is hashed with 64-bit FNV-1a, as
 * KEP-5866 specifies; a namespace with FNV-1a multiplied by 2^64/φ — Converge's own choice,
 * matched by the manager's sharding: namespace names are made by people with shared
 * prefixes and sequential suffixes, and raw FNV-1a leaves those in one narrow slice of the space
 * (UIDs are random, so theirs spreads already).
 * Invariant: a malformed selector is a 400 raised before any object is read; both fields are
 * immutable, so an object never moves between shards and a watch filtered by shard needs no
 * enter/leave events.
 */
import { fnv1a64, namespaceShardHash } from '../../meta/internal.js';
import { badRequest } from '../ground/index.js';

export type ShardField = 'object.metadata.uid' | 'object.metadata.namespace';

export interface ShardRange {
  /** Inclusive. */
  start: bigint;
  /** Exclusive. */
  end: bigint;
}

export interface ShardSelector {
  field: ShardField;
  ranges: ShardRange[];
}

const FULL_SPACE_END = 1n << 64n;
const TERM = /^shardRange\(\s*([^,\s]*)\s*,\s*'([^']*)'\s*,\s*'([^']*)'\s*\)$/;

function parseBound(text: string, term: string): bigint {
  // Bounds are compared as normalised hex (no leading zeros, lower case): numeric order, so a BigInt holds them.
  if (!/^0x[0-9a-fA-F]+$/.test(text))
    throw badRequest(`invalid shardSelector: bound ${JSON.stringify(text)} in ${JSON.stringify(term)} is not a 0x-prefixed hex number`);
  const value = BigInt(text);
  if (value > FULL_SPACE_END)
    throw badRequest(`invalid shardSelector: bound ${text} in ${JSON.stringify(term)} is beyond the hash space end 0x10000000000000000`);
  return value;
}

/** Parses the selector; throws a 400 naming what is wrong. */
export function parseShardSelector(text: string): ShardSelector {
  let field: ShardField | undefined;
  const ranges: ShardRange[] = [];
  for (const raw of text.split('||')) {
    const term = raw.trim();
    const m = TERM.exec(term);
    if (!m) throw badRequest(`invalid shardSelector: ${JSON.stringify(term)} is not shardRange(<field>, '0x<start>', '0x<end>')`);
    const f = m[1]!;
    if (f !== 'object.metadata.uid' && f !== 'object.metadata.namespace') {
      throw badRequest(
        `invalid shardSelector: unsupported field ${JSON.stringify(f)}: supported fields are object.metadata.uid and object.metadata.namespace`,
      );
    }
    if (field !== undefined && f !== field)
      throw badRequest(`invalid shardSelector: all shardRange terms must use the same field, got ${field} and ${f}`);
    field = f;
    const start = parseBound(m[2]!, term);
    const end = parseBound(m[3]!, term);
    if (start >= end) throw badRequest(`invalid shardSelector: empty range in ${JSON.stringify(term)}: start must be below end`);
    ranges.push({ start, end });
  }
  return { field: field!, ranges };
}

/** The predicate of a parsed selector. */
export function shardMatcher(s: ShardSelector): (obj: { metadata: { uid?: string; namespace?: string } }) => boolean {
  const hashOf =
    s.field === 'object.metadata.uid'
      ? (obj: { metadata: { uid?: string } }): bigint => fnv1a64(obj.metadata.uid ?? '')
      : (obj: { metadata: { namespace?: string } }): bigint => namespaceShardHash(obj.metadata.namespace ?? '');
  return (obj) => {
    const h = hashOf(obj);
    for (const r of s.ranges) if (h >= r.start && h < r.end) return true;
    return false;
  };
}
