/**
 * Validation of a custom resource against its CRD's structural schema, with the causes the real
 * server reports in a 422 `Invalid` Status: one cause per failing field, the field path in
 * Kubernetes form (`spec.items[0].name`) and the message worded as kube-openapi words it
 * (`spec.replicas in body must be of type integer: "string"`). A value of the wrong type is
 * reported once and not descended into; every other keyword is checked independently, so one
 * request reports all its problems at once.
 *
 * On an update (validation ratcheting, as kube-apiserver 1.33+ does it), each node that finds its
 * old self (see `CorrelatedObject`) gathers the causes raised at it and below it, and drops them
 * when it is unchanged; causes of nodes without an old self (atomic-list items, `allOf`/`anyOf`
 * branches, root `apiVersion`/`kind`) are judged by the nearest node that has one. The uniqueness
 * of `set` and `map` lists is a pass of its own after these checks (`listTypeCauses`), on an
 * update only when the old object kept it.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { extensionsOf } from './extensions.js';
import { fieldCause, childPath, indexPath } from './field-cause.js';
import type { FieldCause } from './field-cause.js';
import { CorrelatedObject } from './correlated-object.js';
import { listTypeCauses } from './list-type.js';
import { jsonEqual } from '../../meta/index.js';
import { isJsonObject, jsonTypeOf } from './json-object.js';
import { numberMatchesFormat, stringMatchesFormat } from './formats.js';
import { compileSchemaPattern } from './pattern.js';

/**
 * The causes for every way `obj` violates `schema`; empty when it is valid. With `old` (an update),
 * causes on values the update left unchanged are dropped (ratcheting); `correlation` may carry the
 * pairing of `obj` and `old` already built for the CEL rules.
 */
export function validateAgainstSchema(
  obj: unknown,
  schema: JSONSchemaProps,
  old?: unknown,
  correlation: CorrelatedObject | undefined = old === undefined ? undefined : new CorrelatedObject(obj, old, schema),
): FieldCause[] {
  const causes: FieldCause[] = [];
  validateValue(obj, schema, '', causes, correlation);
  if (old === undefined || listTypeCauses(old, schema).length === 0) causes.push(...listTypeCauses(obj, schema));
  return causes;
}

/** `spec.x in body` — how kube-openapi names the failing value inside a message. */
const inBody = (path: string): string => (path === '' ? 'in body' : `${path} in body`);

/** A node with an old self gathers its causes and keeps them only when it changed. */
function validateValue(value: unknown, s: JSONSchemaProps, path: string, causes: FieldCause[], node?: CorrelatedObject): void {
  if (node === undefined) {
    validateNode(value, s, path, causes, undefined);
    return;
  }
  const own: FieldCause[] = [];
  validateNode(value, s, path, own, node);
  if (own.length > 0 && !node.unchanged()) causes.push(...own);
}

function validateNode(value: unknown, s: JSONSchemaProps, path: string, causes: FieldCause[], node: CorrelatedObject | undefined): void {
  if (value === null || value === undefined) {
    if (s.nullable === true) return;
    if (s.type !== undefined && s.type !== '') {
      causes.push(fieldCause.typeInvalid(path, 'null', `${inBody(path)} must be of type ${s.type}: "null"`));
    }
    return;
  }
  const actual = jsonTypeOf(value);
  if (extensionsOf(s)['x-kubernetes-int-or-string'] === true) {
    if (actual !== 'integer' && actual !== 'string') {
      causes.push(fieldCause.typeInvalid(path, actual, `${inBody(path)} must be of type integer,string: "${actual}"`));
      return;
    }
  } else if (s.type !== undefined && s.type !== '' && s.type !== actual && !(s.type === 'number' && actual === 'integer')) {
    causes.push(fieldCause.typeInvalid(path, actual, `${inBody(path)} must be of type ${s.type}: "${actual}"`));
    return;
  }

  if (s.enum !== undefined && !s.enum.some((e) => jsonEqual(e, value))) {
    causes.push(
      fieldCause.notSupported(
        path,
        value,
        s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))),
      ),
    );
  }
  if (typeof value === 'string') validateString(value, s, path, causes);
  else if (typeof value === 'number') validateNumber(value, s, path, causes);
  else if (Array.isArray(value)) validateArray(value, s, path, causes, node);
  else if (isJsonObject(value)) validateObject(value, s, path, causes, node);
  validateJunctors(value, s, path, causes);
}

function validateString(value: string, s: JSONSchemaProps, path: string, causes: FieldCause[]): void {
  const length = [...value].length;
  if (s.maxLength !== undefined && length > s.maxLength) causes.push(fieldCause.tooLong(path, s.maxLength));
  if (s.minLength !== undefined && length < s.minLength) {
    causes.push(fieldCause.invalid(path, value, `${inBody(path)} should be at least ${s.minLength} chars long`));
  }
  if (s.pattern !== undefined && !compileSchemaPattern(s.pattern).test(value)) {
    causes.push(fieldCause.invalid(path, value, `${inBody(path)} should match '${s.pattern}'`));
  }
  if (s.format !== undefined && !stringMatchesFormat(value, s.format)) {
    causes.push(fieldCause.typeInvalid(path, value, `${inBody(path)} must be of type ${s.format}: ${JSON.stringify(value)}`));
  }
}

function validateNumber(value: number, s: JSONSchemaProps, path: string, causes: FieldCause[]): void {
  if (s.maximum !== undefined && (s.exclusiveMaximum === true ? value >= s.maximum : value > s.maximum)) {
    const how = s.exclusiveMaximum === true ? 'less than' : 'less than or equal to';
    causes.push(fieldCause.invalid(path, value, `${inBody(path)} should be ${how} ${s.maximum}`));
  }
  if (s.minimum !== undefined && (s.exclusiveMinimum === true ? value <= s.minimum : value < s.minimum)) {
    const how = s.exclusiveMinimum === true ? 'greater than' : 'greater than or equal to';
    causes.push(fieldCause.invalid(path, value, `${inBody(path)} should be ${how} ${s.minimum}`));
  }
  if (s.multipleOf !== undefined && s.multipleOf > 0 && !Number.isInteger(value / s.multipleOf)) {
    causes.push(fieldCause.invalid(path, value, `${inBody(path)} should be a multiple of ${s.multipleOf}`));
  }
  if (s.format !== undefined && !numberMatchesFormat(value, s.format)) {
    causes.push(fieldCause.typeInvalid(path, value, `${inBody(path)} must be of type ${s.format}: "${value}"`));
  }
}

function validateArray(value: unknown[], s: JSONSchemaProps, path: string, causes: FieldCause[], node: CorrelatedObject | undefined): void {
  if (s.maxItems !== undefined && value.length > s.maxItems) causes.push(fieldCause.tooMany(path, value.length, s.maxItems, 'items'));
  if (s.minItems !== undefined && value.length < s.minItems) {
    causes.push(fieldCause.invalid(path, value.length, `${inBody(path)} should have at least ${s.minItems} items`));
  }
  if (s.uniqueItems === true && value.some((x, i) => value.findIndex((y) => jsonEqual(x, y)) !== i)) {
    causes.push(fieldCause.invalid(path, '', `${inBody(path)} shouldn't contain duplicates`));
  }
  const items = s.items;
  if (items !== undefined && !Array.isArray(items)) {
    value.forEach((item, i) => validateValue(item, items as JSONSchemaProps, indexPath(path, i), causes, node?.index(i)));
  }
}

function validateObject(
  value: Record<string, unknown>,
  s: JSONSchemaProps,
  path: string,
  causes: FieldCause[],
  node: CorrelatedObject | undefined,
): void {
  for (const name of s.required ?? []) {
    if (!Object.hasOwn(value, name)) causes.push(fieldCause.required(childPath(path, name)));
  }
  const count = Object.keys(value).length;
  if (s.maxProperties !== undefined && count > s.maxProperties) causes.push(fieldCause.tooMany(path, count, s.maxProperties, 'properties'));
  if (s.minProperties !== undefined && count < s.minProperties) {
    causes.push(fieldCause.invalid(path, count, `${inBody(path)} should have at least ${s.minProperties} properties`));
  }
  const additional = s.additionalProperties;
  for (const [key, child] of Object.entries(value)) {
    // The root's apiVersion and kind are the request's, not the stored object's: never ratcheted.
    const childNode = path === '' && (key === 'apiVersion' || key === 'kind') ? undefined : node?.key(key);
    const declared = s.properties?.[key];
    if (declared !== undefined) validateValue(child, declared, childPath(path, key), causes, childNode);
    else if (typeof additional === 'object') validateValue(child, additional, childPath(path, key), causes, childNode);
  }
}

/** `allOf`/`anyOf`/`oneOf`/`not` restrict values only (the schema is structural), so each branch is a value check. */
function validateJunctors(value: unknown, s: JSONSchemaProps, path: string, causes: FieldCause[]): void {
  for (const branch of s.allOf ?? []) validateValue(value, branch, path, causes);
  const passes = (branch: JSONSchemaProps) => {
    const branchCauses: FieldCause[] = [];
    validateValue(value, branch, path, branchCauses);
    return branchCauses.length === 0;
  };
  if (s.anyOf !== undefined && !s.anyOf.some(passes)) {
    causes.push(fieldCause.invalid(path, value, `${inBody(path)} must validate at least one schema (anyOf)`));
  }
  if (s.oneOf !== undefined && s.oneOf.filter(passes).length !== 1) {
    causes.push(fieldCause.invalid(path, value, `${inBody(path)} must validate one and only one schema (oneOf)`));
  }
  if (s.not !== undefined && passes(s.not)) {
    causes.push(fieldCause.invalid(path, value, `${inBody(path)} must not validate the schema (not)`));
  }
}
