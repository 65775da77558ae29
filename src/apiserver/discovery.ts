/**
 * Discovery documents, generated from the registry so they always match what is served: legacy
 * `/api`, `/apis`, `/apis/<g>`, `/api/v1` and `/apis/<g>/<v>`, and aggregated discovery v2
 * (https://kubernetes.io/docs/concepts/overview/kubernetes-api/#discovery-api), answered with the
 * exact Content-Type client-go keys its format decision on. Resources are
 * listed sorted, each followed by its subresources.
 */
import type { Registry } from './registry/index.js';
import type { ApiResponse } from './wire/index.js';
import { goJson } from './wire/index.js';
import { jsonResponse } from './wire/index.js';
import type { ServedResource } from './served-resource.js';
import { isOn } from './versions/index.js';

export const AGGREGATED_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const gvString = (group: string, version: string): string => (group ? `${group}/${version}` : version);

function aggregated(body: unknown): ApiResponse {
  return { status: 200, headers: { 'content-type': AGGREGATED_CONTENT_TYPE, vary: 'Accept' }, body: `${goJson(JSON.stringify(body))}\n` };
}

export function legacyApiVersions(serverAddress: string): ApiResponse {
  return jsonResponse(
    200,
    { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] },
    { vary: 'Accept' },
  );
}

function apiGroup(group: string, versions: string[]): Record<string, unknown> {
  const vs = versions.map((v) => ({ groupVersion: gvString(group, v), version: v }));
  return { name: group, versions: vs, preferredVersion: vs[0] };
}

export function legacyApiGroupList(registry: Registry): ApiResponse {
  const groups = registry
    .groups()
    .filter((g) => g.group !== '')
    .map((g) => apiGroup(g.group, g.versions));
  return jsonResponse(200, { kind: 'APIGroupList', apiVersion: 'v1', groups }, { vary: 'Accept' });
}

export function legacyApiGroup(registry: Registry, group: string): ApiResponse | undefined {
  const g = registry.groups().find((x) => x.group === group);
  if (!g || group === '') return undefined;
  return jsonResponse(200, { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g.group, g.versions) });
}

function legacyResources(r: ServedResource): Record<string, unknown>[] {
  const main: Record<string, unknown> = {
    name: r.plural,
    singularName: r.singular,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: r.verbs,
  };
  if (r.shortNames.length > 0) main.shortNames = r.shortNames;
  if (r.categories.length > 0) main.categories = r.categories;
  const subs = [...r.subresources]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((s) => {
      const e: Record<string, unknown> = { name: `${r.plural}/${s.name}`, singularName: '', namespaced: r.namespaced };
      if (s.responseKind.group !== r.group || s.responseKind.version !== r.version) {
        e.group = s.responseKind.group;
        e.version = s.responseKind.version;
      }
      e.kind = s.responseKind.kind;
      e.verbs = s.verbs;
      return e;
    });
  return [main, ...subs];
}

export function legacyResourceList(registry: Registry, group: string, version: string): ApiResponse | undefined {
  if (!registry.servesGroupVersion(group, version)) return undefined;
  const resources = registry.resources(group, version).flatMap(legacyResources);
  return jsonResponse(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gvString(group, version), resources });
}

function aggregatedResource(r: ServedResource): Record<string, unknown> {
  const out: Record<string, unknown> = {
    resource: r.plural,
    responseKind: { group: r.group, version: r.version, kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: r.verbs,
  };
  if (r.shortNames.length > 0) out.shortNames = r.shortNames;
  if (r.categories.length > 0) out.categories = r.categories;
  if (r.subresources.length > 0) {
    out.subresources = [...r.subresources]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((s) => ({ subresource: s.name, responseKind: s.responseKind, verbs: s.verbs }));
  }
  return out;
}

function aggregatedGroup(registry: Registry, group: string, versions: string[]): Record<string, unknown> {
  return {
    metadata: { name: group, creationTimestamp: null },
    versions: versions.map((v) => ({ version: v, resources: registry.resources(group, v).map(aggregatedResource), freshness: 'Current' })),
  };
}

/** Aggregated discovery for `/api` (core group only) or `/apis` (every named group). */
export function aggregatedDiscovery(registry: Registry, legacy: boolean): ApiResponse {
  const items = registry
    .groups()
    .filter((g) => (g.group === '') === legacy)
    .map((g) => aggregatedGroup(registry, g.group, g.versions));
  return aggregated({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items });
}

/**
 * `/version` is written indented and without a final newline, as kube-apiserver writes it. It names
 * the minor the server behaves as; the emulation and compatibility fields come with 1.33, as they did.
 */
export function versionInfo(minor: number): ApiResponse {
  const emulation = isOn('versionEmulationFields', minor)
    ? { emulationMajor: '1', emulationMinor: String(minor), minCompatibilityMajor: '1', minCompatibilityMinor: String(minor - 1) }
    : {};
  const info = {
    major: '1',
    minor: String(minor),
    ...emulation,
    gitVersion: `v1.${minor}.0-converge`,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'converge',
    platform: `${process.platform}/${process.arch}`,
  };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(info, null, 2) };
}
