/**
 * Recorded watch streams for the watch-decode benchmarks: a seeded random source, so every run
 * records the same events and runs compare like with like, and the cutting of a stream into the
 * 16–64 KiB pieces a socket delivers. Invariant: for a given seed, every value handed out is the
 * same in every run (the chunk sizes continue the same sequence as the events drawn before them).
 */

export interface SeededRandom {
  /** The next number in [0, 1). */
  rnd(): number;
  pick<T>(xs: readonly T[]): T;
  /** `n` lowercase hex digits. */
  hex(n: number): string;
  /** A UID-shaped string (8-4-4-4-12 hex digits). */
  uid(): string;
}

/** A linear congruential generator: not random in any strong sense, only reproducible. */
export function seededRandom(seed: number): SeededRandom {
  let s = seed;
  const rnd = (): number => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
  return {
    rnd,
    pick: (xs) => xs[Math.floor(rnd() * xs.length)]!,
    hex,
    uid: () => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`,
  };
}

/** Joins `lines` into one newline-delimited stream and cuts it into 16–64 KiB chunks. */
export function recordStream(lines: readonly string[], random: SeededRandom): { stream: Buffer; chunks: Buffer[] } {
  const stream = Buffer.from(lines.join('\n') + '\n');
  const chunks: Buffer[] = [];
  for (let off = 0; off < stream.length;) {
    const size = 16 * 1024 + Math.floor(random.rnd() * 48 * 1024);
    chunks.push(stream.subarray(off, off + size));
    off += size;
  }
  return { stream, chunks };
}
