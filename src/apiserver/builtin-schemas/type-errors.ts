/**
 * The first field of a built-in object whose JSON kind its Go type cannot take, in the words of the
 * Go JSON decoder kube-apiserver decodes with (`json: cannot unmarshal string into Go struct field
 * DeploymentSpec.spec.replicas of type int32`): the innermost struct's name, the field's path of
 * JSON names (list indexes and map keys are not part of it, as Go names it), and the field's Go type.
 * Fields are visited in body order, and only the first error is reported, as Go's decoder keeps the
 * first. `null` is accepted anywhere (Go decodes it as the zero value). Types with their own
 * decoders are left alone: IntOrString, Time (`date-time`) and opaque values; a plain string also
 * takes a number, since a resource Quantity (a string in these schemas) does. Bytes (`format: byte`,
 * and the byte maps the schemas' source lost the format of) are `[]uint8`, as Go names `[]byte`.
 */
import type { BuiltinSchemas, SchemaObject } from './catalogue.js';
import { refOf } from './catalogue.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

/** Maps of `[]byte` whose values the client-node models describe as plain strings. */
const BYTE_MAPS: Readonly<Record<string, SchemaObject>> = {
  'io.k8s.api.core.v1.Secret.data': { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
  'io.k8s.api.core.v1.ConfigMap.binaryData': { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
};

/** Go's name for a JSON value's kind in an unmarshal error (a number keeps its text where it cannot be an integer). */
function goKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'number' ? 'number' : typeof v;
}

/** `io.k8s.api.apps.v1.DeploymentSpec` → `v1.DeploymentSpec` (package and type, as Go prints a named type). */
const goNamed = (component: string): string => component.split('.').slice(-2).join('.');
const structName = (component: string): string => component.split('.').at(-1) ?? component;

export function firstTypeError(schemas: BuiltinSchemas, component: string, obj: Record<string, unknown>): string | undefined {
  const root = schemas.schema(component);
  return root === undefined ? undefined : checkStruct(schemas, obj, root, component, []);
}

function checkStruct(
  schemas: BuiltinSchemas,
  obj: Record<string, unknown>,
  s: SchemaObject,
  component: string,
  path: readonly string[],
): string | undefined {
  const properties = s['properties'] as Record<string, SchemaObject> | undefined;
  if (properties === undefined) return undefined;
  for (const [key, value] of Object.entries(obj)) {
    const declared = BYTE_MAPS[`${component}.${key}`] ?? properties[key];
    if (declared === undefined) continue;
    const found = checkValue(schemas, value, declared, structName(component), [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The Go type a schema node decodes into, as Go prints it; undefined when it has its own decoder or is opaque. */
function goType(schemas: BuiltinSchemas, s: SchemaObject): string | undefined {
  const ref = refOf(s);
  if (ref !== undefined) {
    if (ref === INT_OR_STRING) return undefined;
    const target = schemas.resolve(s);
    return target !== undefined && isObject(target['properties']) ? goNamed(ref) : undefined;
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === true || s['x-kubernetes-int-or-string'] === true) return undefined;
  switch (s['type']) {
    case 'integer':
      return s['format'] === 'int64' ? 'int64' : 'int32';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'string':
      return s['format'] === 'date-time' ? undefined : s['format'] === 'byte' ? '[]uint8' : 'string';
    case 'array': {
      const items = s['items'];
      const inner = isObject(items) ? goType(schemas, items) : undefined;
      return inner === undefined ? undefined : `[]${inner}`;
    }
    case 'object': {
      const additional = s['additionalProperties'];
      const inner = isObject(additional) ? goType(schemas, additional) : undefined;
      return inner === undefined ? undefined : `map[string]${inner}`;
    }
    default:
      return undefined;
  }
}

function checkValue(schemas: BuiltinSchemas, value: unknown, s: SchemaObject, struct: string, path: readonly string[]): string | undefined {
  if (value === null || value === undefined) return undefined;
  const type = goType(schemas, s);
  if (type === undefined) return undefined;
  const error = (kind: string) => `json: cannot unmarshal ${kind} into Go struct field ${struct}.${path.join('.')} of type ${type}`;
  const ref = refOf(s);
  if (ref !== undefined) {
    if (!isObject(value)) return error(goKind(value));
    return checkStruct(schemas, value, schemas.resolve(s) ?? {}, ref, path);
  }
  switch (s['type']) {
    case 'integer': {
      if (typeof value !== 'number') return error(goKind(value));
      const [min, max] = type === 'int32' ? [-(2 ** 31), 2 ** 31 - 1] : [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
      return Number.isInteger(value) && value >= min && value <= max ? undefined : error(`number ${value}`);
    }
    case 'number':
      return typeof value === 'number' ? undefined : error(goKind(value));
    case 'boolean':
      return typeof value === 'boolean' ? undefined : error(goKind(value));
    case 'string':
      // A number may be a Quantity (which these schemas cannot tell from a string): not refused.
      return typeof value === 'string' || (typeof value === 'number' && type === 'string') ? undefined : error(goKind(value));
    case 'array': {
      if (!Array.isArray(value)) return error(goKind(value));
      const items = s['items'] as SchemaObject;
      for (const item of value) {
        const found = checkValue(schemas, item, items, struct, path);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    default: {
      if (!isObject(value)) return error(goKind(value));
      const additional = s['additionalProperties'] as SchemaObject;
      for (const v of Object.values(value)) {
        const found = checkValue(schemas, v, additional, struct, path);
        if (found !== undefined) return found;
      }
      return undefined;
    }
  }
}
