/**
 * Translates a TypeBox schema (a JSON Schema value) into the structural OpenAPI v3 schema a
 * `apiextensions.k8s.io/v1` CRD takes. TypeBox's own forms become what Kubernetes allows: `anyOf` of
 * literals an `enum`, a union with `null` `nullable`, `Type.Record` `additionalProperties`,
 * `Type.Intersect` of objects one object, `Type.Unknown` `x-kubernetes-preserve-unknown-fields`, and
 * the integer|string union int-or-string. Invariant: the result only holds keywords a CRD schema has,
 * every typed node has a `type`, and anything without a structural form throws
 * `SchemaNotStructuralError` naming its path; nothing is dropped that would change what is accepted,
 * except `additionalProperties: false`, which is what pruning already does.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { SchemaNotStructuralError } from './errors.js';
import type { ValidationRule } from './markers.js';

type Node = Record<string, unknown>;

/** Keywords copied as they are: they mean the same in JSON Schema and in a CRD schema. */
const SAME_MEANING = new Set([
  'description',
  'title',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'default',
  'example',
  'nullable',
]);

const EXTENSIONS = new Set([
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);

/** Identity keywords of JSON Schema documents; a CRD schema is one inline document, so they carry nothing. */
const IDENTITY = new Set(['$id', '$schema']);

/** Key order of the output, so generated YAML reads the same way everywhere; other keys follow. */
const ORDER = [
  'description',
  'title',
  'type',
  'format',
  'enum',
  'default',
  'nullable',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'items',
  'properties',
  'required',
  'additionalProperties',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
];

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean']);
const ANY_KEY_PATTERNS = new Set(['^.*$', '^(.*)$', '.*']);

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (path: string, reason: string): never => {
  throw new SchemaNotStructuralError(path, reason);
};

/** A CRD schema with the Kubernetes extensions typed (`kubernetes-types` leaves them out). @extension */
export interface StructuralSchema extends JSONSchemaProps {
  items?: StructuralSchema;
  properties?: Record<string, StructuralSchema>;
  additionalProperties?: StructuralSchema;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-embedded-resource'?: true;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'granular' | 'atomic';
  'x-kubernetes-validations'?: ValidationRule[];
}

/** The structural form of `schema`; `path` names it in errors (`versions.v1.spec`). @extension */
export function toStructural(schema: unknown, path: string): StructuralSchema {
  return translate(schema, path, false) as StructuralSchema;
}

/**
 * One node. `inJunctor` is true inside `allOf`/`anyOf`/`oneOf`/`not` branches that only restrict
 * values: there a node may (and must) go without a type, as the structural rules require.
 */
function translate(schema: unknown, path: string, inJunctor: boolean): Node {
  if (!isNode(schema)) return fail(path, `must be a schema object, got ${JSON.stringify(schema)}`);
  if ('$ref' in schema) fail(path, '$ref has no structural form: a CRD schema is one inline document; use the referenced schema itself');
  if (Array.isArray(schema['items']) || 'prefixItems' in schema) {
    fail(path, 'a tuple (Type.Tuple) has no structural form; use an object or a list of one type');
  }
  const s = collapse(schema, path);
  const out: Node = {};
  for (const [key, value] of Object.entries(s)) {
    const at = `${path}.${key}`;
    if (IDENTITY.has(key)) continue;
    if (SAME_MEANING.has(key) || EXTENSIONS.has(key)) out[key] = value;
    else if (key === 'type') out['type'] = value;
    else if (key === 'enum') out['enum'] = value;
    else if (key === 'properties') out['properties'] = translateProperties(value, at);
    else if (key === 'required') {
      if (Array.isArray(value) && value.length > 0) out['required'] = value;
    } else if (key === 'items') out['items'] = translate(value, at, inJunctor);
    else if (key === 'additionalItems') {
      if (value !== false) fail(at, 'has no counterpart in a CRD schema');
    } else if (key === 'additionalProperties') translateAdditional(value, s, at, out, inJunctor);
    else if (key === 'patternProperties') translatePatternProperties(value, at, out, inJunctor);
    else if (key === 'uniqueItems') {
      if (value === true) fail(at, 'uniqueItems is not allowed in a CRD schema; mark the list with listSet(...) instead');
    } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') translateExclusive(key, value, s, at, out);
    else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      if (!Array.isArray(value)) fail(at, 'must be a list of schemas');
      out[key] = (value as unknown[]).map((b, i) => translate(b, `${at}[${i}]`, true));
    } else if (key === 'not') out['not'] = translate(value, at, true);
    else fail(at, `the keyword ${key} has no counterpart in a CRD schema`);
  }
  if (out['x-kubernetes-int-or-string'] === true) delete out['type'];
  if (!inJunctor) requireType(out, path);
  checkListType(out, path);
  return ordered(out);
}

/**
 * Rewrites TypeBox's union and literal forms into one plain node: `const` → `enum`, `null` members
 * → `nullable`, `anyOf` of literals → `enum`, `anyOf` of integer and string → int-or-string,
 * `allOf` of objects (`Type.Intersect`) → one object. Value-only junctors (no branch has a type)
 * are left as they are.
 */
function collapse(schema: Node, path: string): Node {
  let s: Node = { ...schema };
  if (Array.isArray(s['type'])) s = collapseTypeList(s, path);
  if (s['type'] === 'null') fail(`${path}.type`, 'null alone has no structural form; make the field optional (Type.Optional) instead');
  if ('const' in s) {
    const { const: value, ...rest } = s;
    s = { ...rest, enum: [value] };
  }
  if (Array.isArray(s['enum'])) s = collapseEnum(s, path);
  for (const junctor of ['anyOf', 'oneOf'] as const) {
    const branches = s[junctor];
    if (!Array.isArray(branches)) continue;
    if (s['x-kubernetes-int-or-string'] === true) {
      // The integer | string branches restate what int-or-string already says (and a type in a junctor is not structural).
      if (isIntegerOrString(branches)) delete s[junctor];
      continue;
    }
    if (branches.every((b) => isNode(b) && !('type' in b) && !('const' in b) && !('enum' in b))) continue;
    const { [junctor]: _, ...rest } = s;
    s = { ...collapseUnion(branches, `${path}.${junctor}`), ...rest };
  }
  const all = s['allOf'];
  if (Array.isArray(all) && all.some((b) => isNode(b) && 'type' in b)) {
    const { allOf: _, ...rest } = s;
    s = { ...mergeObjects(all, `${path}.allOf`), ...rest };
  }
  return s;
}

function collapseTypeList(s: Node, path: string): Node {
  const types = (s['type'] as unknown[]).filter((t) => t !== 'null');
  if (types.length !== 1) fail(`${path}.type`, `a list of types (${JSON.stringify(s['type'])}) has no structural form`);
  return { ...s, type: types[0], ...(types.length < (s['type'] as unknown[]).length ? { nullable: true } : {}) };
}

/** An enum without `null` (which becomes `nullable`), typed by its values when it has no type. */
function collapseEnum(s: Node, path: string): Node {
  const values = s['enum'] as unknown[];
  const nonNull = values.filter((v) => v !== null);
  const out: Node = { ...s, enum: nonNull };
  if (nonNull.length < values.length) out['nullable'] = true;
  if (out['type'] === undefined) out['type'] = typeOfValues(nonNull, `${path}.enum`);
  return out;
}

function typeOfValues(values: unknown[], path: string): string {
  const types = new Set(values.map((v) => (Number.isInteger(v) ? 'integer' : typeof v)));
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
  const [only] = types;
  if (types.size !== 1 || only === undefined || !PRIMITIVES.has(only)) {
    fail(path, `the values ${JSON.stringify(values)} are not all of one scalar type, which a structural enum needs`);
  }
  return only as string;
}

function collapseUnion(branches: unknown[], path: string): Node {
  const nodes = branches.map((b, i) => (isNode(b) ? b : fail(`${path}[${i}]`, 'must be a schema object')));
  const nonNull = nodes.filter((b) => b['type'] !== 'null');
  const nullable = nonNull.length < nodes.length ? { nullable: true } : {};
  if (nonNull.length === 1) return { ...(nonNull[0] as Node), ...nullable };
  const literals = nonNull.map((b) => ('const' in b ? [b['const']] : Array.isArray(b['enum']) ? (b['enum'] as unknown[]) : undefined));
  if (literals.every((l) => l !== undefined)) {
    const values = literals.flat();
    return { type: typeOfValues(values, path), enum: values, ...nullable };
  }
  const types = nonNull.map((b) => b['type']);
  if (isIntegerOrString(nonNull)) {
    return { 'x-kubernetes-int-or-string': true, ...nullable };
  }
  return fail(
    path,
    `a union of ${types.map(String).join(' | ')} has no structural form; use one object with optional fields (and CEL rules), ` +
      'IntOrString(), or Type.Unknown() for free-form data',
  );
}

const isIntegerOrString = (branches: unknown[]): boolean =>
  branches.length === 2 &&
  branches.every((b) => isNode(b) && Object.keys(b).length === 1) &&
  branches
    .map((b) => (b as Node)['type'])
    .sort()
    .join() === 'integer,string';

/** `Type.Intersect` of objects: one object with every property and every required name. */
function mergeObjects(branches: unknown[], path: string): Node {
  const properties: Node = {};
  const required = new Set<string>();
  const extra: Node = {};
  branches.forEach((b, i) => {
    const at = `${path}[${i}]`;
    if (!isNode(b) || b['type'] !== 'object') fail(at, 'an intersection has a structural form only when every member is an object');
    const { type: _, properties: props, required: req, ...rest } = b as Node;
    for (const [name, p] of Object.entries(isNode(props) ? props : {})) {
      if (name in properties) fail(`${at}.properties.${name}`, 'is declared by two members of the intersection');
      properties[name] = p;
    }
    for (const r of Array.isArray(req) ? (req as string[]) : []) required.add(r);
    Object.assign(extra, rest);
  });
  return { type: 'object', properties, ...(required.size > 0 ? { required: [...required] } : {}), ...extra };
}

function translateProperties(value: unknown, path: string): Node {
  if (!isNode(value)) return fail(path, 'must be an object of schemas');
  const out: Node = {};
  for (const [name, p] of Object.entries(value)) out[name] = translate(p, `${path}.${name}`, false);
  return out;
}

function translateAdditional(value: unknown, s: Node, path: string, out: Node, inJunctor: boolean): void {
  // false is the structural default (unknown fields are pruned) and is not allowed as a value.
  if (value === false) return;
  if (value === true) {
    out['x-kubernetes-preserve-unknown-fields'] = true;
    return;
  }
  if (isNode(s['properties']) && Object.keys(s['properties']).length > 0) {
    fail(path, 'properties and a schema for additionalProperties exclude each other in a CRD schema');
  }
  out['additionalProperties'] = translate(value, path, inJunctor);
}

/** `Type.Record(Type.String(), X)` is `patternProperties: { '^.*$': X }`: a map of X. */
function translatePatternProperties(value: unknown, path: string, out: Node, inJunctor: boolean): void {
  const entries = Object.entries(isNode(value) ? value : {});
  const [first] = entries;
  if (entries.length !== 1 || first === undefined || !ANY_KEY_PATTERNS.has(first[0])) {
    fail(path, 'keys restricted by a pattern have no structural form; use Type.Record(Type.String(), …) and a CEL rule on the keys');
  }
  out['additionalProperties'] = translate((first as [string, unknown])[1], `${path}.${(first as [string, unknown])[0]}`, inJunctor);
}

/** JSON Schema's numeric `exclusiveMinimum: n` is OpenAPI v3's `minimum: n, exclusiveMinimum: true`. */
function translateExclusive(key: 'exclusiveMinimum' | 'exclusiveMaximum', value: unknown, s: Node, path: string, out: Node): void {
  if (typeof value === 'boolean') {
    out[key] = value;
    return;
  }
  const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
  if (typeof value !== 'number') fail(path, 'must be a number or a boolean');
  if (s[bound] !== undefined) fail(path, `cannot be combined with ${bound}: a CRD schema has one ${bound} per field`);
  out[bound] = value;
  out[key] = true;
}

/** A node outside a junctor needs a type; a schema that says nothing (`Type.Unknown`) keeps anything. */
function requireType(out: Node, path: string): void {
  if (out['type'] !== undefined || out['x-kubernetes-int-or-string'] === true) return;
  if (out['properties'] !== undefined || out['items'] !== undefined || out['additionalProperties'] !== undefined) {
    fail(path, 'has fields or items but no type');
  }
  out['x-kubernetes-preserve-unknown-fields'] = true;
}

/** The list-type rules the API server would reject a CRD for, caught here with the definition's path. */
function checkListType(out: Node, path: string): void {
  const listType = out['x-kubernetes-list-type'];
  const keys = out['x-kubernetes-list-map-keys'];
  if (listType === undefined && keys === undefined) return;
  if (out['type'] !== 'array') fail(path, 'a list type needs an array');
  const items = isNode(out['items']) ? out['items'] : {};
  if (listType === 'set' && !PRIMITIVES.has(String(items['type']))) fail(path, 'a set (listSet) needs scalar items');
  if (keys !== undefined && listType !== 'map') fail(path, 'list-map keys need list type map');
  if (listType !== 'map') return;
  if (items['type'] !== 'object') fail(path, 'a list map needs object items');
  if (!Array.isArray(keys) || keys.length === 0) return fail(path, 'a list map needs at least one key');
  const props = isNode(items['properties']) ? items['properties'] : {};
  const required = Array.isArray(items['required']) ? (items['required'] as unknown[]) : [];
  for (const k of keys as string[]) {
    const p = props[k];
    if (!isNode(p)) fail(path, `the list-map key ${k} is not a property of the items`);
    if (!required.includes(k) && (p as Node)['default'] === undefined)
      fail(path, `the list-map key ${k} must be required or have a default`);
  }
}

function ordered(out: Node): Node {
  const result: Node = {};
  for (const k of ORDER) if (k in out) result[k] = out[k];
  for (const k of Object.keys(out)) if (!(k in result)) result[k] = out[k];
  return result;
}
