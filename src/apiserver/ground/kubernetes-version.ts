/**
 * Which Kubernetes minor version the server behaves as: the supported range and the parse of the
 * spellings users write (`1.31`, `v1.31`, `1.31.4`). One number, the minor, names a version
 * everywhere in the server; every version-dependent rule compares against it, and nothing outside
 * the supported range ever reaches one.
 */

/** The oldest minor the server can behave as. */
export const OLDEST_MINOR = 31;
/** The newest minor, and the default. */
export const NEWEST_MINOR = 36;

/** Every supported minor, oldest first. */
export const SUPPORTED_MINORS: readonly number[] = Array.from({ length: NEWEST_MINOR - OLDEST_MINOR + 1 }, (_, i) => OLDEST_MINOR + i);

/**
 * The minor a version string names, or a clear error: `1.31`, `v1.31` and `1.31.4` all name 31;
 * a version outside the supported range is refused with that range.
 */
export function parseKubernetesVersion(text: string): number {
  const match = /^v?1\.(\d+)(?:\.\d+)?$/.exec(text.trim());
  if (match === null) throw new Error(`kubernetesVersion "${text}" is not a Kubernetes version such as 1.${NEWEST_MINOR}`);
  const minor = Number(match[1]);
  if (minor < OLDEST_MINOR || minor > NEWEST_MINOR) {
    throw new Error(`kubernetesVersion "${text}" is not supported: choose 1.${OLDEST_MINOR} to 1.${NEWEST_MINOR}`);
  }
  return minor;
}
