/**
 * The OpenAPI rules apiextensions-apiserver holds every node of a CRD schema to, structural or not
 * (its `ValidateCustomResourceDefinitionOpenAPISchema`, without the CEL rules, which
 * `cel-schema-check.ts` reports): only the six OpenAPI types; no `$ref`, `id`, `definitions`,
 * `dependencies`, `patternProperties`, `additionalItems` or list-valued `items`; no `uniqueItems`;
 * `properties` beside `additionalProperties` only when the latter is `true`; no defaults in the
 * root's `metadata`, `apiVersion` or `kind`, nor under `additionalProperties` inside an object's
 * metadata; the `x-kubernetes-list-type`/`-map-type`/`-list-map-keys` extensions on the types they
 * describe, with keys that are required or defaulted scalar properties of the items.
 * See https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/apis/apiextensions/validation/validation.go.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { extensionsOf } from './extensions.js';
import { fieldCause, childPath, indexPath } from './field-cause.js';
import type { FieldCause } from './field-cause.js';

const OPENAPI_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const RESOURCE_META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

type Raw = Record<string, unknown>;
const isSchema = (v: unknown): v is JSONSchemaProps => typeof v === 'object' && v !== null && !Array.isArray(v);
const keyPath = (path: string, key: string): string => `${path}[${key}]`;

/** Where the walk is: whether defaults are allowed here (and why not), and whether it is inside an object's metadata. */
interface Context {
  defaultsForbiddenBecause: string | undefined;
  insideResourceMeta: boolean;
}

/** The violations of the OpenAPI rules in `schema`, in apiextensions' order, with paths under `path`. */
export function openApiSchemaErrors(schema: JSONSchemaProps, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  visit(schema, path, { defaultsForbiddenBecause: undefined, insideResourceMeta: false }, true, causes);
  return causes;
}

/**
 * Why the schema has no structural form (apiextensions' `NewStructural` fails), or undefined. The
 * OpenAPI rules report each of these fields already; this only says whether the structural checks
 * can run.
 */
export function unsupportedField(schema: JSONSchemaProps): string | undefined {
  const raw = schema as Raw;
  if (nonEmptyString(raw['id'])) return "OpenAPIV3Schema 'id' is not supported";
  if (nonEmptyString(raw['$schema'])) return "OpenAPIV3Schema 'schema' is not supported";
  if (nonEmptyString(raw['$ref'])) return "OpenAPIV3Schema '$ref' is not supported";
  if (Object.keys((raw['patternProperties'] as object | undefined) ?? {}).length > 0)
    return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (Object.keys((raw['dependencies'] as object | undefined) ?? {}).length > 0) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (raw['additionalItems'] !== undefined) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (Object.keys((raw['definitions'] as object | undefined) ?? {}).length > 0) return "OpenAPIV3Schema 'definitions' is not supported";
  if (Array.isArray(schema.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  if (extensionsOf(schema)['x-kubernetes-preserve-unknown-fields'] === false) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  const children: unknown[] = [
    ...Object.values(schema.properties ?? {}),
    schema.items,
    schema.additionalProperties,
    schema.not,
    ...(schema.allOf ?? []),
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
  ];
  for (const child of children) {
    const found = isSchema(child) ? unsupportedField(child) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

const nonEmptyString = (v: unknown): boolean => typeof v === 'string' && v !== '';

function visit(s: JSONSchemaProps, path: string, ctx: Context, isRoot: boolean, causes: FieldCause[]): void {
  if (!isSchema(s)) {
    causes.push(fieldCause.invalid(path, s, 'must be a schema object'));
    return;
  }
  nodeRules(s, path, ctx, causes);
  const x = extensionsOf(s);
  const embedded = x['x-kubernetes-embedded-resource'] === true;
  if (s.uniqueItems === true) {
    causes.push(
      fieldCause.forbidden(
        childPath(path, 'uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  }
  if (s.additionalProperties !== undefined) {
    // `properties` are for structs, `additionalProperties` for maps: a schema saying both would
    // contradict the convention that unknown fields are dropped.
    if (Object.keys(s.properties ?? {}).length > 0 && s.additionalProperties !== true) {
      causes.push(
        fieldCause.forbidden(childPath(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'),
      );
    }
    if (isSchema(s.additionalProperties)) {
      // Pruning a default without the actual key would be ambiguous inside metadata.
      const sub = ctx.insideResourceMeta
        ? { ...ctx, defaultsForbiddenBecause: 'inside additionalProperties applying to object metadata' }
        : ctx;
      visit(s.additionalProperties, childPath(path, 'additionalProperties'), sub, false, causes);
    }
  }
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    let sub = ctx;
    if ((isRoot || embedded) && RESOURCE_META_FIELDS.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, defaultsForbiddenBecause: `in top-level ${name}` };
    }
    visit(child, keyPath(childPath(path, 'properties'), name), sub, false, causes);
  }
  if (s.not !== undefined) visit(s.not, childPath(path, 'not'), ctx, false, causes);
  for (const junctor of ['allOf', 'oneOf', 'anyOf'] as const) {
    (s[junctor] ?? []).forEach((b, i) => visit(b, indexPath(childPath(path, junctor), i), ctx, false, causes));
  }
  const raw = s as Raw;
  for (const [name, child] of Object.entries((raw['definitions'] as Record<string, JSONSchemaProps> | undefined) ?? {})) {
    visit(child, keyPath(childPath(path, 'definitions'), name), ctx, false, causes);
  }
  if (isSchema(s.items)) visit(s.items, childPath(path, 'items'), ctx, false, causes);
  else if (Array.isArray(s.items))
    s.items.forEach((b: JSONSchemaProps, i: number) => visit(b, indexPath(childPath(path, 'items'), i), ctx, false, causes));
  for (const [name, child] of Object.entries((raw['dependencies'] as Record<string, unknown> | undefined) ?? {})) {
    if (isSchema(child)) visit(child, keyPath(childPath(path, 'dependencies'), name), ctx, false, causes);
  }
  if (x['x-kubernetes-preserve-unknown-fields'] === false) {
    causes.push(fieldCause.invalid(childPath(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  causes.push(...mapTypeErrors(s, path), ...listTypeErrors(s, path), ...listKeyErrors(s, path));
}

/** The per-node checks (apiextensions' `specStandardValidatorV3.validate`). */
function nodeRules(s: JSONSchemaProps, path: string, ctx: Context, causes: FieldCause[]): void {
  const raw = s as Raw;
  const forbid = (key: string, detail: string) => causes.push(fieldCause.forbidden(childPath(path, key), detail));
  if (typeof s.type === 'string' && s.type !== '' && !OPENAPI_TYPES.includes(s.type)) {
    causes.push(fieldCause.notSupported(childPath(path, 'type'), s.type, OPENAPI_TYPES));
  }
  if (s.default !== undefined && ctx.defaultsForbiddenBecause !== undefined)
    forbid('default', `must not be set ${ctx.defaultsForbiddenBecause}`);
  if (nonEmptyString(raw['id'])) forbid('id', 'id is not supported');
  if (raw['additionalItems'] !== undefined) forbid('additionalItems', 'additionalItems is not supported');
  if (Object.keys((raw['patternProperties'] as object | undefined) ?? {}).length > 0)
    forbid('patternProperties', 'patternProperties is not supported');
  if (Object.keys((raw['definitions'] as object | undefined) ?? {}).length > 0) forbid('definitions', 'definitions is not supported');
  if (raw['dependencies'] !== undefined) forbid('dependencies', 'dependencies is not supported');
  if (raw['$ref'] !== undefined) forbid('$ref', '$ref is not supported');
  if (s.type === 'null') forbid('type', 'type cannot be set to null, use nullable as an alternative');
  if (Array.isArray(s.items)) forbid('items', 'items must be a schema object and not an array');
  if (ctx.insideResourceMeta && extensionsOf(s)['x-kubernetes-embedded-resource'] === true) {
    forbid('x-kubernetes-embedded-resource', 'must not be used inside of resource meta');
  }
}

function mapTypeErrors(s: JSONSchemaProps, path: string): FieldCause[] {
  const mapType = extensionsOf(s)['x-kubernetes-map-type'];
  if (mapType === undefined) return [];
  const out: FieldCause[] = [];
  if (s.type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified';
    out.push(s.type ? fieldCause.invalid(childPath(path, 'type'), s.type, detail) : fieldCause.required(childPath(path, 'type'), detail));
  }
  if (mapType !== 'atomic' && mapType !== 'granular')
    out.push(fieldCause.notSupported(childPath(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  return out;
}

function listTypeErrors(s: JSONSchemaProps, path: string): FieldCause[] {
  const x = extensionsOf(s);
  const listType = x['x-kubernetes-list-type'];
  const out: FieldCause[] = [];
  if (listType !== undefined && s.type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified';
    out.push(s.type ? fieldCause.invalid(childPath(path, 'type'), s.type, detail) : fieldCause.required(childPath(path, 'type'), detail));
  } else if (listType === 'set' && isSchema(s.items)) {
    // Set items are compared as wholes, so they must be atomic themselves.
    const item = extensionsOf(s.items);
    const detail = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    if (s.items.type === 'array' && item['x-kubernetes-list-type'] !== undefined && item['x-kubernetes-list-type'] !== 'atomic') {
      out.push(fieldCause.invalid(childPath(path, 'items.x-kubernetes-list-type'), item['x-kubernetes-list-type'], detail));
    } else if (s.items.type === 'object' && item['x-kubernetes-map-type'] !== 'atomic') {
      out.push(fieldCause.invalid(childPath(path, 'items.x-kubernetes-map-type'), item['x-kubernetes-list-type'], detail));
    }
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) {
    out.push(fieldCause.notSupported(childPath(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  const keys = x['x-kubernetes-list-map-keys'] ?? [];
  if (keys.length > 0) {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined) out.push(fieldCause.required(childPath(path, 'x-kubernetes-list-type'), detail));
    else if (listType !== 'map') out.push(fieldCause.invalid(childPath(path, 'x-kubernetes-list-type'), listType, detail));
  }
  if (listType !== 'map') return out;
  if (keys.length === 0)
    out.push(fieldCause.required(childPath(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
  if (s.items === undefined) out.push(fieldCause.required(childPath(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
  else if (!isSchema(s.items))
    out.push(fieldCause.invalid(childPath(path, 'items'), s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
  else if (s.items.type !== 'object') {
    out.push(
      fieldCause.invalid(
        childPath(path, 'items.type'),
        s.items.type ?? '',
        "must be object if parent array's x-kubernetes-list-type is map",
      ),
    );
  } else {
    const seen = new Set<string>();
    for (const key of keys) {
      const property = s.items.properties?.[key];
      if (property === undefined) {
        out.push(fieldCause.invalid(childPath(path, 'x-kubernetes-list-map-keys'), keys, 'entries must all be names of item properties'));
      } else if (property.type === 'array' || property.type === 'object') {
        const at = `${childPath(path, 'items.properties')}[${key}].type`;
        out.push(fieldCause.invalid(at, s.items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
      }
      if (seen.has(key))
        out.push(fieldCause.invalid(childPath(path, 'x-kubernetes-list-map-keys'), keys, 'must not contain duplicate entries'));
      seen.add(key);
    }
  }
  return out;
}

/** Items of sets and maps, and the keys of map items, are never null; a key is either required or defaulted. */
function listKeyErrors(s: JSONSchemaProps, path: string): FieldCause[] {
  const x = extensionsOf(s);
  const listType = x['x-kubernetes-list-type'];
  if (!isSchema(s.items) || (listType !== 'set' && listType !== 'map')) return [];
  const out: FieldCause[] = [];
  if (s.items.nullable === true)
    out.push(fieldCause.forbidden(childPath(path, 'items.nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return out;
  const required = new Set(s.items.required ?? []);
  for (const key of x['x-kubernetes-list-map-keys'] ?? []) {
    const property = s.items.properties?.[key];
    if (property === undefined) continue;
    const at = `${childPath(path, 'items.properties')}[${key}]`;
    if (!required.has(key) && property.default === undefined) {
      out.push(
        fieldCause.required(
          childPath(at, 'default'),
          'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        ),
      );
    }
    if (property.nullable === true)
      out.push(fieldCause.forbidden(childPath(at, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
  return out;
}
