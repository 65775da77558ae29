/**
 * Whether a CRD version's `openAPIV3Schema` is accepted, decided as apiextensions-apiserver decides
 * it when the CRD is written (its `ValidateCustomResourceDefinitionOpenAPISchema`, `ValidateStructural`
 * and `ValidateDefaults`): first the OpenAPI rules every schema follows (`schema-rules.ts`), then the
 * structural invariants below, and only for a structural schema the defaults (`default-rules.ts`).
 *
 * The structural invariants (https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/apiserver/schema/validation.go):
 * every specified field has a type unless it is int-or-string or preserves unknown fields; the root
 * is an object without `additionalProperties`; the logical junctors (`allOf`/`anyOf`/`oneOf`/`not`)
 * only restrict values — no type, default, title, description, nullable, `additionalProperties` or
 * vendor extension inside them, except the two int-or-string forms
 * `anyOf: [{type: integer}, {type: string}]` and `allOf: [{anyOf: [those two]}, …]` — and every
 * field or item they name is also specified by the root's structure; `metadata` at the root
 * restricts at most `name` and `generateName`; an embedded resource is an object with properties
 * or preserving unknown fields. Pruning, defaulting and validation rely on these holding.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { jsonEqual } from '../../meta/index.js';
import { defaultErrors } from './default-rules.js';
import { extensionsOf } from './extensions.js';
import { fieldCause, childPath, indexPath } from '../ground/index.js';
import type { FieldCause } from '../ground/index.js';
import { patternError } from './pattern.js';
import { openApiSchemaErrors, unsupportedField } from './schema-rules.js';

type Level = 'root' | 'item' | 'field';

const keyPath = (path: string, key: string): string => `${path}[${key}]`;
const propertyPath = (path: string, name: string): string => keyPath(childPath(path, 'properties'), name);

/**
 * The reasons `schema` is refused as a CRD version's schema, with field paths under `fieldPath`
 * (for a CRD: `spec.versions[0].schema.openAPIV3Schema`). Empty when the schema is accepted.
 */
export function validateStructuralSchema(schema: JSONSchemaProps, fieldPath: string): FieldCause[] {
  // A node that is not an object (`properties: { spec: null }`) cannot be walked by any rule below;
  // it is refused at its own path, as the CRD's body fails to decode into a schema there.
  const notSchemas = nonSchemaNodes(schema, fieldPath);
  if (notSchemas.length > 0) return notSchemas;
  const causes: FieldCause[] = [];
  if (schema.nullable === true) causes.push(fieldCause.forbidden(childPath(fieldPath, 'nullable'), 'nullable cannot be true at the root'));
  // A schema the structural form cannot represent (e.g. `items` as a list) is reported by the
  // OpenAPI rules; the structural checks then have nothing sound to walk.
  const unsupported = unsupportedField(schema);
  if (unsupported === undefined) {
    const structural = structuralErrors(schema, fieldPath);
    causes.push(...(structural.length > 0 ? structural : defaultErrors(schema, fieldPath)));
  }
  causes.push(...openApiSchemaErrors(schema, fieldPath));
  if (causes.length === 0 && unsupported !== undefined) causes.push(fieldCause.invalid(fieldPath, '', unsupported));
  return causes;
}

/** The structural invariants and completeness, sorted by their text as apiextensions sorts them. */
export function structuralErrors(schema: JSONSchemaProps, fieldPath: string): FieldCause[] {
  const causes: FieldCause[] = [];
  invariants(schema, 'root', fieldPath, causes);
  valueValidationCompleteness(schema, schema, fieldPath, fieldPath, causes);
  const text = (c: FieldCause) => `${c.field}: ${c.message}`;
  return causes.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}

const isSchema = (v: unknown): v is JSONSchemaProps => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every place under `s` where a schema is expected and something else stands. A `null` where Go
 * decodes into a pointer (`items`, `not`, `additionalProperties`) is an absent schema, as there.
 */
function nonSchemaNodes(s: JSONSchemaProps, path: string): FieldCause[] {
  const at = (v: unknown, p: string): FieldCause[] =>
    isSchema(v) ? nonSchemaNodes(v, p) : [fieldCause.invalid(p, v, 'must be a schema object')];
  const pointer = (v: unknown, p: string): FieldCause[] => (v === null || v === undefined ? [] : at(v, p));
  const causes: FieldCause[] = [];
  for (const [name, child] of Object.entries(s.properties ?? {})) causes.push(...at(child, propertyPath(path, name)));
  if (!Array.isArray(s.items)) causes.push(...pointer(s.items, childPath(path, 'items')));
  if (typeof s.additionalProperties !== 'boolean') causes.push(...pointer(s.additionalProperties, childPath(path, 'additionalProperties')));
  causes.push(...pointer(s.not, childPath(path, 'not')));
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    (s[junctor] ?? []).forEach((branch, i) => causes.push(...at(branch, indexPath(childPath(path, junctor), i))));
  }
  return causes;
}
const itemsOf = (s: JSONSchemaProps): JSONSchemaProps | undefined => (isSchema(s.items) ? s.items : undefined);
const nonEmpty = (v: string | undefined): v is string => v !== undefined && v !== '';
/** A default of `null` is no default: the server's structural form cannot tell them apart. */
const hasDefault = (s: JSONSchemaProps): boolean => s.default !== undefined && s.default !== null;

function invariants(s: JSONSchemaProps, level: Level, path: string, causes: FieldCause[]): void {
  const x = extensionsOf(s);
  const intOrString = x['x-kubernetes-int-or-string'] === true;
  const preserve = x['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = x['x-kubernetes-embedded-resource'] === true;

  if (s.type === 'array' && s.items === undefined) causes.push(fieldCause.required(childPath(path, 'items'), 'must be specified'));
  const items = itemsOf(s);
  if (items !== undefined) invariants(items, 'item', childPath(path, 'items'), causes);
  for (const [name, child] of Object.entries(s.properties ?? {})) invariants(child, 'field', propertyPath(path, name), causes);
  if (s.additionalProperties !== undefined) {
    if (level === 'root') causes.push(fieldCause.forbidden(childPath(path, 'additionalProperties'), 'must not be used at the root'));
    if (isSchema(s.additionalProperties)) invariants(s.additionalProperties, 'field', childPath(path, 'additionalProperties'), causes);
  }

  if (intOrString && preserve) {
    const at = childPath(path, 'x-kubernetes-preserve-unknown-fields');
    causes.push(fieldCause.invalid(at, true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (intOrString && embedded) {
    causes.push(
      fieldCause.invalid(childPath(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'),
    );
  }

  valueValidation(s, { skipAnyOf: isIntOrStringAnyOf(s), skipFirstAllOfAnyOf: isIntOrStringAllOf(s) }, path, causes);

  const checkMetadata = level === 'root' || embedded;
  if (embedded && s.type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    causes.push(
      nonEmpty(s.type) ? fieldCause.invalid(childPath(path, 'type'), s.type, detail) : fieldCause.required(childPath(path, 'type'), detail),
    );
  } else if (!nonEmpty(s.type) && !intOrString && !preserve) {
    const detail = {
      root: 'must not be empty at the root',
      item: 'must not be empty for specified array items',
      field: 'must not be empty for specified object fields',
    };
    causes.push(fieldCause.required(childPath(path, 'type'), detail[level]));
  }
  if (embedded && s.additionalProperties !== undefined) {
    causes.push(fieldCause.forbidden(childPath(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (level === 'root' && nonEmpty(s.type) && s.type !== 'object') {
    causes.push(fieldCause.invalid(childPath(path, 'type'), s.type, 'must be object at the root'));
  }
  for (const typeField of ['kind', 'apiVersion']) {
    const child = s.properties?.[typeField];
    if (checkMetadata && child !== undefined && child.type !== 'string') {
      causes.push(fieldCause.invalid(childPath(propertyPath(path, typeField), 'type'), child.type ?? '', 'must be string'));
    }
  }
  const metadata = s.properties?.['metadata'];
  if (metadata !== undefined) metadataInvariants(metadata, checkMetadata, level, propertyPath(path, 'metadata'), causes);
  if (embedded && !preserve && Object.keys(s.properties ?? {}).length === 0) {
    const detail = 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields';
    causes.push(fieldCause.required(childPath(path, 'properties'), detail));
  }
}

/** Keys that leave a schema node "empty" as apiextensions compares it, whatever their (zero) value. */
const isZero = (key: string, value: unknown): boolean =>
  value === undefined ||
  value === '' ||
  value === false ||
  (key === 'default' && value === null) ||
  (Array.isArray(value) && value.length === 0 && key !== 'required') ||
  (key === 'properties' && typeof value === 'object' && value !== null && Object.keys(value).length === 0);

const setKeys = (s: JSONSchemaProps): string[] => Object.entries(s).flatMap(([k, v]) => (isZero(k, v) ? [] : [k]));

/**
 * Root `metadata` may only restrict `name` and `generateName` (what they contain is not looked
 * at here); anything else would be a promise about ObjectMeta the server does not keep. The
 * metadata of an embedded resource only has to be an object.
 */
function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, level: Level, path: string, causes: FieldCause[]): void {
  if (checkMetadata && s.type !== 'object') causes.push(fieldCause.invalid(childPath(path, 'type'), s.type ?? '', 'must be object'));
  if (level !== 'root') return;
  const names = Object.keys(s.properties ?? {});
  const onlyNames = names.length > 0 && names.every((n) => n === 'name' || n === 'generateName');
  const rest = setKeys(s).filter((k) => k !== 'type' && k !== 'default' && !(k === 'properties' && onlyNames));
  if (rest.length > 0) {
    causes.push(
      fieldCause.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'),
    );
  }
}

/** `anyOf: [{type: integer}, {type: string}]` exactly: the int-or-string form a junctor may type. */
function isIntOrStringAnyOfBranches(anyOf: JSONSchemaProps[] | undefined): boolean {
  if (anyOf?.length !== 2) return false;
  return ['integer', 'string'].every((type, i) => {
    const branch = anyOf[i] as JSONSchemaProps;
    return isSchema(branch) && jsonEqual(setKeys(branch), ['type']) && branch.type === type;
  });
}
const isIntOrStringAnyOf = (s: JSONSchemaProps): boolean => isIntOrStringAnyOfBranches(s.anyOf);
const isIntOrStringAllOf = (s: JSONSchemaProps): boolean => {
  const first = s.allOf?.[0];
  return first !== undefined && isSchema(first) && isIntOrStringAnyOfBranches(first.anyOf);
};

interface Skips {
  skipAnyOf: boolean;
  skipFirstAllOfAnyOf: boolean;
}
const NO_SKIPS: Skips = { skipAnyOf: false, skipFirstAllOfAnyOf: false };

/** The junctors of a node (structural or nested) and its pattern. */
function valueValidation(v: JSONSchemaProps, skips: Skips, path: string, causes: FieldCause[]): void {
  if (!skips.skipAnyOf) (v.anyOf ?? []).forEach((b, i) => nested(b, NO_SKIPS, indexPath(childPath(path, 'anyOf'), i), causes));
  (v.allOf ?? []).forEach((b, i) => {
    const skip = { skipAnyOf: skips.skipFirstAllOfAnyOf && i === 0, skipFirstAllOfAnyOf: false };
    nested(b, skip, indexPath(childPath(path, 'allOf'), i), causes);
  });
  (v.oneOf ?? []).forEach((b, i) => nested(b, NO_SKIPS, indexPath(childPath(path, 'oneOf'), i), causes));
  if (v.not !== undefined) nested(v.not, NO_SKIPS, childPath(path, 'not'), causes);
  if (nonEmpty(v.pattern)) {
    const problem = patternError(v.pattern);
    if (problem !== undefined) {
      causes.push(fieldCause.invalid(childPath(path, 'pattern'), v.pattern, `must be a valid regular expression, but isn't: ${problem}`));
    }
  }
}

/** What a schema under a junctor may not say: anything that shapes the value rather than restricting it. */
function nested(v: JSONSchemaProps, skips: Skips, path: string, causes: FieldCause[]): void {
  if (!isSchema(v)) return;
  valueValidation(v, skips, path, causes);
  const items = itemsOf(v);
  if (items !== undefined) nested(items, NO_SKIPS, childPath(path, 'items'), causes);
  for (const [name, child] of Object.entries(v.properties ?? {})) nested(child, NO_SKIPS, propertyPath(path, name), causes);
  const x = extensionsOf(v);
  const forbid = (key: string, detail: string) => causes.push(fieldCause.forbidden(childPath(path, key), detail));
  if (nonEmpty(v.type)) forbid('type', 'must be empty to be structural');
  // `additionalProperties: false` has no structural form (it is dropped); `true` or a schema are refused.
  if (v.additionalProperties !== undefined && v.additionalProperties !== false)
    forbid('additionalProperties', 'must be undefined to be structural');
  if (hasDefault(v)) forbid('default', 'must be undefined to be structural');
  if (nonEmpty(v.title)) forbid('title', 'must be empty to be structural');
  if (nonEmpty(v.description)) forbid('description', 'must be empty to be structural');
  if (v.nullable === true) forbid('nullable', 'must be false to be structural');
  if (x['x-kubernetes-preserve-unknown-fields'] === true) forbid('x-kubernetes-preserve-unknown-fields', 'must be false to be structural');
  if (x['x-kubernetes-embedded-resource'] === true) forbid('x-kubernetes-embedded-resource', 'must be false to be structural');
  if (x['x-kubernetes-int-or-string'] === true) forbid('x-kubernetes-int-or-string', 'must be false to be structural');
  if ((x['x-kubernetes-list-map-keys'] ?? []).length > 0) forbid('x-kubernetes-list-map-keys', 'must be empty to be structural');
  if (x['x-kubernetes-list-type'] !== undefined) forbid('x-kubernetes-list-type', 'must be undefined to be structural');
  if (x['x-kubernetes-map-type'] !== undefined) forbid('x-kubernetes-map-type', 'must be undefined to be structural');
  if ((x['x-kubernetes-validations'] ?? []).length > 0) forbid('x-kubernetes-validations', 'must be empty to be structural');
  // Reasoning about metadata under a junctor could restrict ObjectMeta in ways the server does not keep.
  if (v.properties?.['metadata'] !== undefined) {
    causes.push(fieldCause.forbidden(propertyPath(path, 'metadata'), 'must not be specified in a nested context'));
  }
}

/**
 * Completeness: every property and `items` a junctor of the root names is also specified by the
 * structure at the same place, so every value validation applies to a value of known schema.
 * As in apiextensions, this starts from the root's junctors (and the junctors nested in them).
 */
function valueValidationCompleteness(
  v: JSONSchemaProps,
  s: JSONSchemaProps | undefined,
  sPath: string,
  vPath: string,
  causes: FieldCause[],
): void {
  if (s === undefined) {
    causes.push(fieldCause.required(sPath, `because it is defined in ${vPath}`));
    return;
  }
  if (v.not !== undefined) nestedCompleteness(v.not, s, sPath, childPath(vPath, 'not'), causes);
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    (v[junctor] ?? []).forEach((b, i) => nestedCompleteness(b, s, sPath, indexPath(childPath(vPath, junctor), i), causes));
  }
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string, causes: FieldCause[]): void {
  if (!isSchema(v)) return;
  if (s === undefined) {
    causes.push(fieldCause.required(sPath, `because it is defined in ${vPath}`));
    return;
  }
  valueValidationCompleteness(v, s, sPath, vPath, causes);
  const items = itemsOf(v);
  if (items !== undefined) nestedCompleteness(items, itemsOf(s), childPath(sPath, 'items'), childPath(vPath, 'items'), causes);
  for (const [name, child] of Object.entries(v.properties ?? {})) {
    const declared = s.properties?.[name];
    if (declared === undefined) {
      causes.push(fieldCause.required(propertyPath(sPath, name), `because it is defined in ${propertyPath(vPath, name)}`));
    } else {
      nestedCompleteness(child, declared, propertyPath(sPath, name), propertyPath(vPath, name), causes);
    }
  }
}
