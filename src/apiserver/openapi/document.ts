/**
 * The OpenAPI v3 documents the server publishes: one per group-version (`/openapi/v3/apis/g/v`)
 * and the index that points at them with content hashes (`/openapi/v3`). Generated from the same
 * `ServedResource`s the REST handlers serve, so they cannot disagree. Object schemas carry
 * `x-kubernetes-group-version-kind` (how `kubectl explain` finds a kind) and reference the shared
 * `ObjectMeta`; custom resources publish their CRD schema, built-ins their schemas from
 * `builtin-schemas` (with every component those reference), and a resource with neither a
 * permissive object schema.
 */
import { formatGroupVersion, parseGroupVersion } from '../../meta/index.js';
import type { GroupVersionKind } from '../../meta/index.js';
import type { ServedResource } from '../served-resource.js';
import { builtinSchemas } from '../builtin-schemas/index.js';
import { componentName, ref, OBJECT_META, LIST_META } from './component-names.js';
import { metaSchemas } from './meta-schemas.js';
import { resourcePaths } from './operations.js';
import { openApiHash } from './hash.js';

type Json = Record<string, unknown>;

/** The Kubernetes version the documents claim (the spec this server follows). */
const INFO = { title: 'Kubernetes', version: 'v1.36.0' } as const;

const gvkExtension = (gvk: GroupVersionKind) => ({
  'x-kubernetes-group-version-kind': [{ group: gvk.group, kind: gvk.kind, version: gvk.version }],
});

const typeFields = {
  apiVersion: {
    type: 'string',
    description:
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
  },
  kind: {
    type: 'string',
    description:
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. In CamelCase.',
  },
};

/** The key of a group-version in the v3 index: `api/v1` for core, `apis/<group>/<version>` otherwise. */
export function openApiV3Path(groupVersion: string): string {
  const gv = parseGroupVersion(groupVersion);
  return gv.group === '' ? `api/${gv.version}` : `apis/${gv.group}/${gv.version}`;
}

function objectSchema(r: ServedResource): Json {
  const gvk = { group: r.group, version: r.version, kind: r.kind };
  const published = r.schema === undefined ? undefined : (structuredClone(r.schema) as Json);
  const ownProperties = (published?.['properties'] ?? {}) as Json;
  const rest = Object.fromEntries(Object.entries(ownProperties).filter(([k]) => !['apiVersion', 'kind', 'metadata'].includes(k)));
  const base: Json = published ?? {
    description: `${r.kind} is served by Converge without a published field schema; fields beyond apiVersion, kind and metadata are not described here.`,
    'x-kubernetes-preserve-unknown-fields': true,
  };
  return {
    ...base,
    type: 'object',
    properties: {
      ...typeFields,
      metadata: {
        description:
          "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
        allOf: [ref(OBJECT_META)],
      },
      ...rest,
    },
    ...gvkExtension(gvk),
  };
}

function listSchema(r: ServedResource): Json {
  const gvk = { group: r.group, version: r.version, kind: `${r.kind}List` };
  return {
    type: 'object',
    description: `${r.kind}List is a list of ${r.kind}`,
    required: ['items'],
    properties: {
      ...typeFields,
      items: { type: 'array', description: `List of ${r.plural}.`, items: ref(componentName({ ...gvk, kind: r.kind })) },
      metadata: { description: 'Standard list metadata.', allOf: [ref(LIST_META)] },
    },
    ...gvkExtension(gvk),
  };
}

const scaleSchema = (gvk: GroupVersionKind): Json => ({
  type: 'object',
  description: 'Scale represents a scaling request for a resource.',
  properties: {
    ...typeFields,
    metadata: { description: 'Standard object metadata.', allOf: [ref(OBJECT_META)] },
    spec: {
      type: 'object',
      description: 'spec defines the behavior of the scale.',
      properties: {
        replicas: { type: 'integer', format: 'int32', description: 'replicas is the desired number of instances for the scaled object.' },
      },
    },
    status: {
      type: 'object',
      description: 'status is the current status of the scale.',
      required: ['replicas'],
      properties: {
        replicas: {
          type: 'integer',
          format: 'int32',
          description: 'replicas is the actual number of observed instances of the scaled object.',
        },
        selector: { type: 'string', description: 'selector is the label query over pods that should match the replicas count.' },
      },
    },
  },
  ...gvkExtension(gvk),
});

/**
 * The built-in schemas' components for a built-in resource: its kind, its List, what its subresources
 * answer with, and all they reference; undefined for custom resources and kinds without one.
 */
function upstreamComponents(r: ServedResource): Json | undefined {
  if (r.custom) return undefined;
  const catalogue = builtinSchemas();
  const own = catalogue.componentOf(r);
  if (own === undefined) return undefined;
  const kinds = [{ ...r, kind: `${r.kind}List` }, ...r.subresources.map((s) => s.responseKind)];
  const names = [own, ...kinds.flatMap((k) => catalogue.componentOf(k) ?? [])];
  return catalogue.closure(names);
}

/**
 * The OpenAPI 3.0 document of one group-version (`v1`, `apps/v1`, `platform.converge.dev/v1alpha1`).
 * Resources of other group-versions in `resources` are ignored.
 */
export function buildOpenApiV3Document(groupVersion: string, resources: readonly ServedResource[]): Json {
  const gv = formatGroupVersion(parseGroupVersion(groupVersion));
  const served = resources.filter((r) => formatGroupVersion(r) === gv).sort((a, b) => a.plural.localeCompare(b.plural));
  const paths: Json = {};
  const schemas: Json = metaSchemas();
  for (const r of served) {
    Object.assign(paths, resourcePaths(r));
    const upstream = upstreamComponents(r);
    if (upstream !== undefined) {
      Object.assign(schemas, upstream);
      continue;
    }
    schemas[componentName(r)] = objectSchema(r);
    schemas[componentName({ ...r, kind: `${r.kind}List` })] = listSchema(r);
    for (const sub of r.subresources) {
      if (sub.responseKind.kind === 'Scale') schemas[componentName(sub.responseKind)] = scaleSchema(sub.responseKind);
    }
  }
  return { openapi: '3.0.0', info: INFO, paths, components: { schemas } };
}

/**
 * The `/openapi/v3` index: one entry per served group-version, each pointing at its document with
 * the document's content hash, so clients refetch exactly when a document changed.
 */
export function buildOpenApiV3Index(resources: readonly ServedResource[]): { paths: Record<string, { serverRelativeURL: string }> } {
  const groupVersions = [...new Set(resources.map((r) => formatGroupVersion(r)))];
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [key, gv] of groupVersions.map((gv) => [openApiV3Path(gv), gv] as const).sort(([a], [b]) => a.localeCompare(b))) {
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${openApiHash(buildOpenApiV3Document(gv, resources))}` };
  }
  return { paths };
}
