/**
 * The shard hashes the manager and the API server must compute identically: 64-bit FNV-1a over UTF-8
 * bytes (the hash KEP-5866's sharded list and watch put object UIDs in), and the namespace hash,
 * FNV-1a 64 multiplied by 2^64/φ (Converge's choice for namespaces). One copy here means the shard
 * whose informer delivers an object is, by construction, the shard that admits its reconcile.
 */

const encoder = new TextEncoder();

/**
 * 64-bit FNV-1a over the UTF-8 bytes of `value`. The state is kept as two 32-bit halves (plain
 * numbers stay exact; BigInt per byte would be slow): multiplying by the prime 2^40 + 0x1b3 is
 * `x * 0x1b3 + (x << 40)`, and the shifted low half lands in the high half shifted by 8.
 * @extension
 */
export function fnv1a64(value: string): bigint {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  const bytes = encoder.encode(value);
  for (let i = 0; i < bytes.length; i++) {
    lo ^= bytes[i]!;
    const loProduct = (lo >>> 0) * 0x1b3;
    const carry = Math.floor(loProduct / 0x100000000);
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) >>> 0;
    lo = loProduct >>> 0;
  }
  return (BigInt(hi) << 32n) | BigInt(lo >>> 0);
}

/** 2^64 / φ, odd: multiplying by it is Fibonacci hashing. */
const GOLDEN = 0x9e3779b97f4a7c15n;
const MASK = (1n << 64n) - 1n;

/**
 * The hash a namespace is sharded by: FNV-1a 64 times 2^64/φ (mod 2^64). Raw FNV-1a of names that
 * differ only in their last characters (`team-1`, `team-2`, …) differs only in its low bits; the
 * multiplication carries those differences into the top bits the shard ranges cut on, and by the
 * golden ratio it spreads an arithmetic run of inputs as evenly as any multiplier can (the
 * three-gap theorem); random names stay random.
 * @extension
 */
export function namespaceShardHash(namespace: string): bigint {
  return (fnv1a64(namespace) * GOLDEN) & MASK;
}
