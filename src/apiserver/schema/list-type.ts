/**
 * The uniqueness of `x-kubernetes-list-type: set` items and `map` keys, checked as apiextensions'
 * `listtype` package checks it: a pass of its own after the OpenAPI checks, reporting the first
 * repeat of each value (`spec.tags[2]: Duplicate value: "x"`) and refusing a non-object item of a
 * list-map. It is ratcheted as one: an update is checked only when the old object had no such
 * error (the caller decides). Only what the schema declares is walked.
 *
 * https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/apiserver/schema/listtype/validation.go
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { extensionsOf } from './extensions.js';
import { childPath, fieldCause, indexPath, type FieldCause } from './field-cause.js';
import { isJsonObject } from './json-object.js';

/** Duplicate items of sets and duplicate keys of list-maps anywhere in `obj`. */
export function listTypeCauses(obj: unknown, schema: JSONSchemaProps): FieldCause[] {
  const causes: FieldCause[] = [];
  walk(obj, schema, '', causes);
  return causes;
}

function walk(value: unknown, s: JSONSchemaProps, path: string, causes: FieldCause[]): void {
  if (Array.isArray(value)) {
    const listType = extensionsOf(s)['x-kubernetes-list-type'];
    if (listType === 'set') {
      for (const i of firstRepeats(value)) causes.push(fieldCause.duplicate(indexPath(path, i), value[i]));
    } else if (listType === 'map') {
      checkListMap(value, extensionsOf(s)['x-kubernetes-list-map-keys'] ?? [], path, causes);
    }
    const items = s.items;
    if (items !== undefined && !Array.isArray(items))
      value.forEach((item, i) => walk(item, items as JSONSchemaProps, indexPath(path, i), causes));
  } else if (isJsonObject(value)) {
    for (const [k, child] of Object.entries(value)) {
      const declared = s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      if (declared !== undefined) walk(child, declared, childPath(path, k), causes);
    }
  }
}

function checkListMap(value: unknown[], keys: readonly string[], path: string, causes: FieldCause[]): void {
  const bad = value.findIndex((x) => x !== null && !isJsonObject(x));
  if (bad >= 0) {
    causes.push(fieldCause.invalid(indexPath(path, bad), value[bad], 'must be an object for an array of list-type map'));
    return;
  }
  // A missing key (or a null item) keys as "unspecified", distinct from any value, null included.
  const keyOf = (x: unknown): Record<string, unknown> =>
    Object.fromEntries(keys.filter((k) => isJsonObject(x) && Object.hasOwn(x, k)).map((k) => [k, (x as Record<string, unknown>)[k]]));
  const keyed = value.map(keyOf);
  for (const i of firstRepeats(keyed)) causes.push(fieldCause.duplicate(indexPath(path, i), keyed[i]));
}

/** The index of the second occurrence of each value that occurs more than once. */
function firstRepeats(values: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  values.forEach((v, i) => {
    const key = canonical(v);
    const times = seen.get(key) ?? 0;
    if (times === 1) out.push(i);
    seen.set(key, times + 1);
  });
  return out;
}

/** JSON with object keys sorted, as Go marshals maps, so key order does not make two items differ. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isJsonObject(v)) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
