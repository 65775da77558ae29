/**
 * Defaulting: an absent field whose schema has a `default` gets a copy of it (so does `null` where
 * the field is not `nullable`), top-down, so a defaulted object then receives its own nested
 * defaults. Runs in place, before pruning and validation, as on the real server.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { isJsonObject } from './json-object.js';

export function applyDefaults(obj: unknown, schema: JSONSchemaProps): void {
  if (Array.isArray(obj)) {
    const items = schema.items;
    if (items !== undefined && !Array.isArray(items)) for (const item of obj) applyDefaults(item, items as JSONSchemaProps);
    return;
  }
  if (!isJsonObject(obj)) return;
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const absent = !Object.hasOwn(obj, key) || (obj[key] === null && child.nullable !== true);
    if (absent && child.default !== undefined) obj[key] = structuredClone(child.default);
    if (Object.hasOwn(obj, key)) applyDefaults(obj[key], child);
  }
  const additional = schema.additionalProperties;
  if (typeof additional === 'object') {
    for (const key of Object.keys(obj)) if (schema.properties?.[key] === undefined) applyDefaults(obj[key], additional);
  }
}
