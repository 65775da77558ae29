/**
 * Defaulting, as apiextensions-apiserver defaults a custom resource
 * (https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/apiserver/schema/defaulting/algorithm.go):
 * first a `null` where the schema is not `nullable` and has no default is dropped; then, top-down,
 * an absent property with a `default` gets a copy of it, and so does a non-nullable `null` property,
 * map value or list item whose schema has one — so a defaulted object then receives its own nested
 * defaults. Defaults apply under `x-kubernetes-preserve-unknown-fields` and inside embedded
 * resources alike, wherever the schema specifies them. Runs in place, before pruning and validation.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { isJsonObject } from './json-object.js';

const asSchema = (v: unknown): JSONSchemaProps | undefined => (isJsonObject(v) ? (v as JSONSchemaProps) : undefined);
const hasDefault = (s: JSONSchemaProps | undefined): s is JSONSchemaProps =>
  s !== undefined && s.default !== undefined && s.default !== null;
const nonNullableNull = (x: unknown, s: JSONSchemaProps | undefined): s is JSONSchemaProps =>
  x === null && s !== undefined && s.nullable !== true;

export function applyDefaults(obj: unknown, schema: JSONSchemaProps): void {
  pruneNonNullableNulls(obj, schema);
  setDefaults(obj, schema);
}

/** The schema of a property or map value; undefined where nothing is specified. */
function fieldSchema(s: JSONSchemaProps | undefined, key: string): JSONSchemaProps | undefined {
  return s?.properties?.[key] ?? asSchema(s?.additionalProperties);
}

/** Drops non-nullable nulls that have no default (those with one are defaulted next). */
function pruneNonNullableNulls(x: unknown, s: JSONSchemaProps | undefined): void {
  if (Array.isArray(x)) {
    const items = asSchema(s?.items);
    for (const item of x) pruneNonNullableNulls(item, items);
  } else if (isJsonObject(x)) {
    for (const [key, value] of Object.entries(x)) {
      const child = fieldSchema(s, key);
      if (nonNullableNull(value, child) && !hasDefault(child)) delete x[key];
      else pruneNonNullableNulls(value, child);
    }
  }
}

function setDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = asSchema(s.items);
    x.forEach((item, i) => {
      if (nonNullableNull(item, items) && hasDefault(items)) x[i] = structuredClone(items.default);
      setDefaults(x[i], items);
    });
    return;
  }
  if (!isJsonObject(x)) return;
  for (const [key, child] of Object.entries(s.properties ?? {})) {
    if (!hasDefault(child)) continue;
    if (!Object.hasOwn(x, key) || nonNullableNull(x[key], child)) x[key] = structuredClone(child.default);
  }
  const additional = asSchema(s.additionalProperties);
  for (const key of Object.keys(x)) {
    const declared = s.properties?.[key];
    if (declared !== undefined) setDefaults(x[key], declared);
    else if (s.additionalProperties !== undefined) {
      if (nonNullableNull(x[key], additional) && hasDefault(additional)) x[key] = structuredClone(additional.default);
      setDefaults(x[key], additional);
    }
  }
}
