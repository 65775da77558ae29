/**
 * Pruning: the real server drops every field of a custom resource its structural schema does not
 * declare, unless the field sits under `x-kubernetes-preserve-unknown-fields: true`. `apiVersion`,
 * `kind` and `metadata` of the object (and of `x-kubernetes-embedded-resource` objects) are always
 * kept, and `metadata` is reduced to the ObjectMeta fields. The pruned paths are returned so the
 * REST layer can warn about them (`fieldValidation=Warn`) or refuse the request (`Strict`).
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

/**
 * Removes, in place, the fields of `obj` that `schema` does not declare. Returns their paths with a
 * leading dot (`.spec.foo`, `.spec.items[0].bar`), in the order they were found; the warning text
 * is the path without that dot (`unknown field "spec.foo"`).
 */
export function pruneUnknownFields(obj: unknown, schema: JSONSchemaProps): string[] {
  const pruned: string[] = [];
  if (isJsonObject(obj)) pruneObject(obj, schema, '', pruned, true);
  return pruned;
}

function pruneValue(value: unknown, schema: JSONSchemaProps, path: string, pruned: string[]): void {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items === undefined || Array.isArray(items)) return;
    value.forEach((item, i) => pruneValue(item, items as JSONSchemaProps, `${path}[${i}]`, pruned));
  } else if (isJsonObject(value)) {
    pruneObject(value, schema, path, pruned, extensionsOf(schema)['x-kubernetes-embedded-resource'] === true);
  }
}

function pruneObject(obj: JsonObject, schema: JSONSchemaProps, path: string, pruned: string[], isResource: boolean): void {
  const preserve = extensionsOf(schema)['x-kubernetes-preserve-unknown-fields'] === true;
  const additional = schema.additionalProperties;
  for (const key of Object.keys(obj)) {
    const at = `${path}.${key}`;
    if (isResource && RESOURCE_FIELDS.has(key)) {
      const meta = obj[key];
      if (key === 'metadata' && isJsonObject(meta)) pruneMetadata(meta, at, pruned);
      continue;
    }
    const declared = schema.properties?.[key];
    if (declared !== undefined) pruneValue(obj[key], declared, at, pruned);
    else if (typeof additional === 'object') pruneValue(obj[key], additional, at, pruned);
    else if (!preserve && additional !== true) {
      delete obj[key];
      pruned.push(at);
    }
  }
}

function pruneMetadata(meta: JsonObject, path: string, pruned: string[]): void {
  for (const key of Object.keys(meta)) {
    if (OBJECT_META_FIELDS.has(key)) continue;
    delete meta[key];
    pruned.push(`${path}.${key}`);
  }
}
