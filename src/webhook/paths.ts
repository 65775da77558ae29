/**
 * The URL paths controller-runtime serves webhooks at, so that manifests written for a Go operator
 * fit: `/mutate-<group with dots as dashes>-<version>-<kind lower case>`, `/validate-…` alike, and
 * `/convert` for every conversion. Invariant: one kind and version maps to exactly one path of each.
 */
import type { ResourceDescriptor } from '../meta/index.js';

/** The one path every conversion is served at. */
export const CONVERT_PATH = '/convert';

const suffix = (r: ResourceDescriptor): string => `${r.group.replaceAll('.', '-')}-${r.version}-${r.kind.toLowerCase()}`;

/** `/mutate-platform-converge-dev-v1-webapp` for `platform.converge.dev/v1` WebApp. */
export const mutatePath = (r: ResourceDescriptor): string => `/mutate-${suffix(r)}`;

/** `/validate-platform-converge-dev-v1-webapp` for `platform.converge.dev/v1` WebApp. */
export const validatePath = (r: ResourceDescriptor): string => `/validate-${suffix(r)}`;
