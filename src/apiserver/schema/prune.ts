/**
 * Pruning, as apiextensions-apiserver prunes a custom resource
 * (https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/apiserver/schema/pruning/algorithm.go):
 * every field the structural schema does not specify is dropped. Under
 * `x-kubernetes-preserve-unknown-fields: true` unknown fields are kept, but the fields the schema
 * does specify there are pruned again by their own schema. `apiVersion`, `kind` and `metadata` of
 * the object (and of `x-kubernetes-embedded-resource` objects) are not pruned by the schema;
 * `metadata` is instead reduced to the ObjectMeta fields. A value under `additionalProperties: true`
 * keeps its scalars but loses every object field (nothing is specified for them).
 *
 * The dropped paths are returned with a leading dot (`.spec.foo`, `.spec.items[0].bar`, `.spec.m[k]`
 * for a map value's embedded metadata), in the server's order: the root's metadata fields, then the
 * schema's (sorted), then those of embedded objects' metadata (sorted). The REST layer warns about
 * them (`fieldValidation=Warn`) or refuses the request (`Strict`).
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { extensionsOf } from './extensions.js';
import { isJsonObject } from './json-object.js';
import type { JsonObject } from './json-object.js';

const OBJECT_META_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);
const RESOURCE_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

export interface PruneOptions {
  /** Whether `obj` is a whole resource (its apiVersion, kind and metadata kept). Default true. */
  isResourceRoot?: boolean;
}

/**
 * Removes, in place, the fields of `obj` that `schema` does not specify, and the non-ObjectMeta
 * fields of its and its embedded objects' `metadata`. Returns the removed paths (see above).
 */
export function pruneUnknownFields(obj: unknown, schema: JSONSchemaProps, options: PruneOptions = {}): string[] {
  const isResourceRoot = options.isResourceRoot ?? true;
  const root: Node = isResourceRoot ? { schema, embedded: true } : nodeOf(schema);
  const rootMeta: string[] = [];
  if (isResourceRoot && isJsonObject(obj) && isJsonObject(obj['metadata'])) pruneMetadata(obj['metadata'], '.metadata', rootMeta);
  const pruned: string[] = [];
  prune(obj, root, '', pruned);
  const embeddedMeta: string[] = [];
  coerceEmbeddedMetadata(obj, nodeOf(schema), '', embeddedMeta);
  return [...rootMeta, ...pruned.sort(), ...embeddedMeta.sort()];
}

/** A schema node as pruning sees it; `undefined` schema means "nothing specified here". */
interface Node {
  schema: JSONSchemaProps | undefined;
  embedded: boolean;
}

const nodeOf = (schema: JSONSchemaProps | undefined): Node => ({
  schema,
  embedded: schema !== undefined && extensionsOf(schema)['x-kubernetes-embedded-resource'] === true,
});

const asSchema = (v: unknown): JSONSchemaProps | undefined => (isJsonObject(v) ? (v as JSONSchemaProps) : undefined);
const itemsOf = (s: JSONSchemaProps | undefined): JSONSchemaProps | undefined => asSchema(s?.items);

/** The schema of a map value (`additionalProperties`): `null` when there is none at all, `undefined` when it is `true`/`false`. */
function additionalOf(s: JSONSchemaProps): JSONSchemaProps | undefined | null {
  if (s.additionalProperties === undefined) return null;
  return asSchema(s.additionalProperties);
}

function prune(x: unknown, node: Node, path: string, pruned: string[]): void {
  const s = node.schema;
  if (s !== undefined && extensionsOf(s)['x-kubernetes-preserve-unknown-fields'] === true) {
    skipPrune(x, node, path, pruned);
    return;
  }
  if (Array.isArray(x)) {
    x.forEach((item, i) => prune(item, nodeOf(itemsOf(s)), `${path}[${i}]`, pruned));
    return;
  }
  if (!isJsonObject(x)) return;
  for (const key of Object.keys(x)) {
    const at = `${path}.${key}`;
    if (s === undefined) {
      delete x[key];
      pruned.push(at);
      continue;
    }
    if (node.embedded && RESOURCE_FIELDS.has(key)) continue;
    const declared = s.properties?.[key];
    const additional = additionalOf(s);
    if (declared !== undefined) prune(x[key], nodeOf(declared), at, pruned);
    else if (additional !== null) prune(x[key], nodeOf(additional), at, pruned);
    else {
      delete x[key];
      // A root apiVersion/kind/metadata dropped by a non-resource schema is not reported.
      if (!RESOURCE_FIELDS.has(key) || path !== '') pruned.push(at);
    }
  }
}

/** Under preserve-unknown-fields: unknown fields stay, specified ones are pruned by their own schema. */
function skipPrune(x: unknown, node: Node, path: string, pruned: string[]): void {
  const s = node.schema;
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsOf(s);
    if (items !== undefined) x.forEach((item, i) => skipPrune(item, nodeOf(items), `${path}[${i}]`, pruned));
    return;
  }
  if (!isJsonObject(x)) return;
  for (const key of Object.keys(x)) {
    if (node.embedded && RESOURCE_FIELDS.has(key)) continue;
    const declared = s.properties?.[key];
    const additional = additionalOf(s);
    if (declared !== undefined) prune(x[key], nodeOf(declared), `${path}.${key}`, pruned);
    else if (additional !== null) prune(x[key], nodeOf(additional), `${path}.${key}`, pruned);
  }
}

function pruneMetadata(meta: JsonObject, path: string, pruned: string[]): void {
  for (const key of Object.keys(meta)) {
    if (OBJECT_META_FIELDS.has(key)) continue;
    delete meta[key];
    pruned.push(`${path}.${key}`);
  }
}

/** ObjectMeta coercion of embedded objects: their metadata keeps only ObjectMeta fields, wherever the schema reaches. */
function coerceEmbeddedMetadata(x: unknown, node: Node, path: string, pruned: string[]): void {
  const s = node.schema;
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = nodeOf(itemsOf(s));
    x.forEach((item, i) => coerceEmbeddedMetadata(item, items, `${path}[${i}]`, pruned));
    return;
  }
  if (!isJsonObject(x)) return;
  if (node.embedded && isJsonObject(x['metadata'])) pruneMetadata(x['metadata'], `${path}.metadata`, pruned);
  for (const key of Object.keys(x)) {
    const declared = s.properties?.[key];
    const additional = additionalOf(s);
    if (declared !== undefined) coerceEmbeddedMetadata(x[key], nodeOf(declared), `${path}.${key}`, pruned);
    else if (additional !== null) coerceEmbeddedMetadata(x[key], nodeOf(additional), `${path}[${key}]`, pruned);
  }
}
