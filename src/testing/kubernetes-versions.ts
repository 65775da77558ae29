/**
 * The Kubernetes versions a `TestEnv` can behave as, for running one test body per version: write
 * `for (const v of kubernetesVersions()) it(`… on ${v}`, …)` with `TestEnv.start({ kubernetesVersion: v })`.
 * Invariant: every version returned is one the server accepts, oldest first, and a bound outside the
 * supported range is refused with that range rather than silently clipped.
 */
import { parseKubernetesVersion, SUPPORTED_MINORS } from '../apiserver/internal.js';

/**
 * Every supported version (`1.31` … the newest), oldest first, or those between `oldest` and `newest`
 * (inclusive), for an operator that supports a narrower range.
 */
export function kubernetesVersions(range: { oldest?: string; newest?: string } = {}): string[] {
  const low = range.oldest === undefined ? SUPPORTED_MINORS[0]! : parseKubernetesVersion(range.oldest);
  const high = range.newest === undefined ? SUPPORTED_MINORS.at(-1)! : parseKubernetesVersion(range.newest);
  if (low > high) throw new Error(`kubernetesVersions: oldest 1.${low} is newer than newest 1.${high}`);
  return SUPPORTED_MINORS.filter((m) => m >= low && m <= high).map((m) => `1.${m}`);
}
