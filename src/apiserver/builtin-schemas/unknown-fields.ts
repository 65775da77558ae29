/**
 * The fields of a built-in object that its kind's schema does not declare — what Go's strict JSON
 * decoder reports as `unknown field "spec.replica"` — removed in place, as the real server's decoder
 * drops them. Paths are dotted with list indexes (`spec.template.spec.containers[0].imagePullPolcy`),
 * in the order the fields appear. Opaque values (a schema that declares no fields at all, such as
 * RawExtension or FieldsV1, or `x-kubernetes-preserve-unknown-fields`) accept anything.
 */
import type { BuiltinSchemas, SchemaObject } from './catalogue.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

export function dropUnknownFields(schemas: BuiltinSchemas, component: string, obj: Json): string[] {
  const found: string[] = [];
  walk(schemas, obj, schemas.schema(component), '', found);
  return found;
}

function walk(schemas: BuiltinSchemas, value: unknown, node: SchemaObject | undefined, path: string, found: string[]): void {
  const s = schemas.resolve(node);
  if (s === undefined || s['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (Array.isArray(value)) {
    const items = s['items'];
    if (isObject(items)) value.forEach((v, i) => walk(schemas, v, items, `${path}[${i}]`, found));
    return;
  }
  if (!isObject(value)) return;
  const properties = s['properties'] as Record<string, SchemaObject> | undefined;
  const additional = s['additionalProperties'];
  if (properties === undefined && !isObject(additional)) return;
  for (const key of Object.keys(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    const declared = properties?.[key] ?? (isObject(additional) ? additional : undefined);
    if (declared !== undefined) walk(schemas, value[key], declared, at, found);
    else {
      delete value[key];
      found.push(at);
    }
  }
}
