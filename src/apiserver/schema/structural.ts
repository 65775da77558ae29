/**
 * The structural-schema rules a `v1` CRD's `openAPIV3Schema` must follow (the real server rejects
 * a CRD with a non-structural schema with 422): every specified field has a type unless it is
 * int-or-string or preserves unknown fields; the root is an object; logical junctors
 * (`allOf`/`anyOf`/`oneOf`/`not`) only restrict values and never introduce types, defaults or
 * fields not also declared outside; `properties` and `additionalProperties` exclude each other;
 * `metadata` at the root (and of embedded resources) may only restrict `name` and `generateName`;
 * a `default` must survive pruning unchanged and be valid against its own schema (it is applied
 * to objects without being checked again). Pruning, defaulting and validation rely on these rules
 * holding.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { extensionsOf } from './extensions.js';
import { fieldCause, childPath, indexPath } from '../ground/index.js';
import { pruneUnknownFields } from './prune.js';
import { validateAgainstSchema } from './validate.js';
import type { FieldCause } from '../ground/index.js';

const JUNCTORS = ['allOf', 'anyOf', 'oneOf'] as const;
/** Keys a junctor may not carry: they would make the schema's shape depend on which branch matches. */
const FORBIDDEN_IN_JUNCTORS = ['type', 'additionalProperties', 'default', 'description', 'title', 'nullable'] as const;
const ALLOWED_ROOT_METADATA_FIELDS = new Set(['name', 'generateName']);
const VALID_TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);

/**
 * The violations of the structural rules in `schema`, with field paths under `fieldPath`
 * (for a CRD: `spec.versions[0].schema.openAPIV3Schema`). Empty when the schema is structural.
 */
export function validateStructuralSchema(schema: JSONSchemaProps, fieldPath: string): FieldCause[] {
  const causes: FieldCause[] = [];
  if (schema.type !== 'object') {
    causes.push(
      schema.type === undefined || schema.type === ''
        ? fieldCause.required(childPath(fieldPath, 'type'), 'must not be empty at the root')
        : fieldCause.invalid(childPath(fieldPath, 'type'), schema.type, 'must be object at the root'),
    );
  }
  const metadata = schema.properties?.['metadata'];
  if (metadata !== undefined) checkRootMetadata(metadata, `${fieldPath}.properties[metadata]`, causes);
  checkNode(schema, fieldPath, causes, { root: true });
  return causes;
}

function checkRootMetadata(metadata: JSONSchemaProps, path: string, causes: FieldCause[]): void {
  if (metadata.type !== undefined && metadata.type !== 'object') {
    causes.push(fieldCause.invalid(childPath(path, 'type'), metadata.type, 'must be object'));
  }
  const extra = Object.keys(metadata).filter((k) => !['type', 'properties', 'description', 'title'].includes(k));
  const extraProps = Object.keys(metadata.properties ?? {}).filter((k) => !ALLOWED_ROOT_METADATA_FIELDS.has(k));
  if (extra.length > 0 || extraProps.length > 0) {
    causes.push(
      fieldCause.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'),
    );
  }
}

function checkNode(s: JSONSchemaProps, path: string, causes: FieldCause[], { root = false } = {}): void {
  // A child schema given as null, a list or a scalar has no rules to read; it is reported, not walked.
  if (s === null || typeof s !== 'object' || Array.isArray(s)) {
    causes.push(fieldCause.invalid(path, s, 'must be a schema object'));
    return;
  }
  const intOrString = extensionsOf(s)['x-kubernetes-int-or-string'] === true;
  const preserve = extensionsOf(s)['x-kubernetes-preserve-unknown-fields'];
  if (s.type !== undefined && s.type !== '' && !VALID_TYPES.has(s.type)) {
    causes.push(fieldCause.notSupported(childPath(path, 'type'), s.type, [...VALID_TYPES]));
  }
  if (!root && (s.type === undefined || s.type === '') && !intOrString && preserve !== true) {
    causes.push(fieldCause.required(childPath(path, 'type'), 'must not be empty for specified object fields'));
  }
  if (intOrString && s.type !== undefined && s.type !== '') {
    causes.push(fieldCause.invalid(childPath(path, 'type'), s.type, 'must be empty if x-kubernetes-int-or-string is true'));
  }
  if (preserve === false) {
    causes.push(fieldCause.invalid(childPath(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  if (extensionsOf(s)['x-kubernetes-embedded-resource'] === true && s.type !== 'object') {
    causes.push(fieldCause.invalid(childPath(path, 'type'), s.type ?? '', 'must be object if x-kubernetes-embedded-resource is true'));
  }
  const embeddedMetadata = s.properties?.['metadata'];
  if (!root && extensionsOf(s)['x-kubernetes-embedded-resource'] === true && embeddedMetadata !== undefined) {
    checkRootMetadata(embeddedMetadata, `${path}.properties[metadata]`, causes);
  }
  if (s.properties !== undefined && s.additionalProperties !== undefined) {
    causes.push(fieldCause.forbidden(childPath(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
  }
  if (s.additionalProperties === false) {
    causes.push(fieldCause.forbidden(childPath(path, 'additionalProperties'), 'additionalProperties cannot be set to false'));
  }
  if (extensionsOf(s)['x-kubernetes-list-type'] === 'map' && (extensionsOf(s)['x-kubernetes-list-map-keys'] ?? []).length === 0) {
    causes.push(fieldCause.required(childPath(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
  }
  if (s.type === 'array' && s.items === undefined) {
    causes.push(fieldCause.required(childPath(path, 'items'), 'must be specified'));
  }
  if (Array.isArray(s.items)) {
    causes.push(fieldCause.forbidden(childPath(path, 'items'), 'items must be a schema object and not an array'));
  }

  if (s.default !== undefined) checkDefault(s, childPath(path, 'default'), causes);

  for (const [name, child] of Object.entries(s.properties ?? {})) checkNode(child, `${path}.properties[${name}]`, causes);
  if (s.items !== undefined && !Array.isArray(s.items)) checkNode(s.items as JSONSchemaProps, childPath(path, 'items'), causes);
  if (typeof s.additionalProperties === 'object') checkNode(s.additionalProperties, childPath(path, 'additionalProperties'), causes);

  for (const junctor of JUNCTORS) {
    (s[junctor] ?? []).forEach((branch, i) => checkJunctor(branch, indexPath(childPath(path, junctor), i), s, causes));
  }
  if (s.not !== undefined) checkJunctor(s.not, childPath(path, 'not'), s, causes);
}

/** A default must contain only fields the schema keeps, and must validate against the schema. */
function checkDefault(s: JSONSchemaProps, path: string, causes: FieldCause[]): void {
  const value = structuredClone(s.default);
  // Pruning works on objects; wrap the value so that a default of any type goes through one path.
  const holder = { value };
  const pruned = pruneUnknownFields(holder, { type: 'object', properties: { value: s } } as JSONSchemaProps);
  if (pruned.length > 0) {
    causes.push(
      fieldCause.invalid(path, s.default, `must not have unknown fields: ${pruned.map((p) => p.replace(/^\.value\.?/, '')).join(', ')}`),
    );
  }
  for (const cause of validateAgainstSchema(value, s)) {
    causes.push({ reason: cause.reason, field: cause.field === '' ? path : `${path}.${cause.field}`, message: cause.message });
  }
}

/** A junctor branch may only restrict values of fields the enclosing schema already declares. */
function checkJunctor(branch: JSONSchemaProps, path: string, outer: JSONSchemaProps | undefined, causes: FieldCause[]): void {
  for (const key of FORBIDDEN_IN_JUNCTORS) {
    if (branch[key] !== undefined) causes.push(fieldCause.forbidden(childPath(path, key), 'must be empty to be structural'));
  }
  for (const key of Object.keys(branch)) {
    if (key.startsWith('x-kubernetes-')) causes.push(fieldCause.forbidden(childPath(path, key), 'must be false to be structural'));
  }
  for (const [name, child] of Object.entries(branch.properties ?? {})) {
    const declared = outer?.properties?.[name];
    if (
      declared === undefined &&
      (outer === undefined ? undefined : extensionsOf(outer)['x-kubernetes-preserve-unknown-fields']) !== true
    ) {
      causes.push(
        fieldCause.required(`${path}.properties[${name}]`, 'must be specified in the structural schema outside of value validations'),
      );
    }
    checkJunctor(child, `${path}.properties[${name}]`, declared, causes);
  }
  if (branch.items !== undefined && !Array.isArray(branch.items)) {
    const outerItems = outer?.items !== undefined && !Array.isArray(outer.items) ? (outer.items as JSONSchemaProps) : undefined;
    checkJunctor(branch.items as JSONSchemaProps, childPath(path, 'items'), outerItems, causes);
  }
  for (const junctor of JUNCTORS) {
    (branch[junctor] ?? []).forEach((b, i) => checkJunctor(b, indexPath(childPath(path, junctor), i), outer, causes));
  }
  if (branch.not !== undefined) checkJunctor(branch.not, childPath(path, 'not'), outer, causes);
}
