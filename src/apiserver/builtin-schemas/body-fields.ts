/**
 * One walk over a built-in object that does what kube-apiserver's strict JSON decoder does in one
 * decode: finds the first field whose JSON kind its Go type cannot take, and lists the fields the
 * kind's schema does not declare.
 *
 * The type error is told in the Go decoder's words (`json: cannot unmarshal string into Go struct
 * field DeploymentSpec.spec.replicas of type int32`): the innermost struct's name, the field's path of
 * JSON names (list indexes and map keys are not part of it, as Go names it), and the field's Go type.
 * Only the first, in body order, is reported, as Go's decoder keeps the first, and the walk stops
 * there. `null` is accepted anywhere (Go decodes it as the zero value). Types with their own decoders
 * are left alone: IntOrString, Time (`date-time`) and opaque values; a plain string also takes a
 * number, since a resource Quantity (a string in these schemas) does. Bytes (`format: byte`, and the
 * byte maps the schemas' source lost the format of) are `[]uint8`, as Go names `[]byte`.
 *
 * An unknown field (`unknown field "spec.replica"`) is listed with its dotted path with list indexes
 * (`spec.template.spec.containers[0].imagePullPolcy`), in body order, and with the object that holds
 * it, so that `dropFields` can remove it later, as the real server's decoder drops it. Opaque values
 * (a schema that declares no fields at all, such as RawExtension or FieldsV1, or
 * `x-kubernetes-preserve-unknown-fields`) accept anything. Invariant: the walk changes nothing.
 */
import type { BuiltinSchemas, SchemaObject } from './catalogue.js';
import { refOf } from './catalogue.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

/** Maps of `[]byte` whose values the client-node models describe as plain strings. */
const BYTE_MAPS: Readonly<Record<string, SchemaObject>> = {
  'io.k8s.api.core.v1.Secret.data': { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
  'io.k8s.api.core.v1.ConfigMap.binaryData': { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
};

/** A field the schema does not declare: its path, and the object and key that hold it. */
export interface UnknownField {
  path: string;
  owner: Json;
  key: string;
}

/** What the walk found: the first type error (when types were checked), and the unknown fields before it. */
export interface BodyFields {
  typeError: string | undefined;
  unknown: UnknownField[];
}

/**
 * Walks `obj` as the kind `component`. With `types` false the walk only lists unknown fields (for an
 * object the server built, whose types were checked when its parts were decoded).
 */
export function inspectBody(schemas: BuiltinSchemas, component: string, obj: Json, options: { types: boolean }): BodyFields {
  const root = schemas.schema(component);
  const walk = new Walk(schemas);
  walk.visit(obj, root, options.types && root !== undefined ? { schema: root, component, path: [] } : undefined, '');
  return { typeError: walk.typeError, unknown: walk.unknown };
}

/** Removes the unknown fields `inspectBody` listed; their paths, in order. */
export function dropFields(unknown: readonly UnknownField[]): string[] {
  for (const u of unknown) delete u.owner[u.key];
  return unknown.map((u) => u.path);
}

/** Go's name for a JSON value's kind in an unmarshal error (a number keeps its text where it cannot be an integer). */
function goKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'number' ? 'number' : typeof v;
}

/** `io.k8s.api.apps.v1.DeploymentSpec` → `v1.DeploymentSpec` (package and type, as Go prints a named type). */
const goNamed = (component: string): string => component.split('.').slice(-2).join('.');
const structName = (component: string): string => component.split('.').at(-1) ?? component;

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

/**
 * Where the type check stands, as Go's decoder would: decoding an object as the struct `schema` of
 * the component `component` (it checks the declared fields), or decoding a value as the schema
 * `value` (a field, a list item, a map value) inside the struct named `struct`. Once a list or map
 * value decoded, the second form is what each of its items or values is decoded as. `path` is the Go
 * path of JSON field names.
 */
type GoAt =
  { schema: SchemaObject; component: string; path: readonly string[] } | { value: SchemaObject; struct: string; path: readonly string[] };

class Walk {
  readonly unknown: UnknownField[] = [];
  typeError: string | undefined;
  readonly #schemas: BuiltinSchemas;

  constructor(schemas: BuiltinSchemas) {
    this.#schemas = schemas;
  }

  /**
   * Checks `value` against the type check's place `go` and lists the undeclared fields below it by
   * the schema node `node` (the two descend together; the type check stops where a type decodes
   * itself, the listing where the schema is opaque). False once a type error is found.
   */
  visit(value: unknown, node: SchemaObject | undefined, go: GoAt | undefined, path: string): boolean {
    if (node === undefined && go === undefined) return true;
    if (go !== undefined && 'value' in go) {
      const next = this.#decodeValue(value, go);
      if (typeof next === 'string') {
        this.typeError = next;
        return false;
      }
      go = next;
    }
    const s = node && this.#schemas.resolve(node);
    const listing = s !== undefined && s['x-kubernetes-preserve-unknown-fields'] !== true;
    if (Array.isArray(value)) {
      const items = listing ? s['items'] : undefined;
      const itemNode = isObject(items) ? items : undefined;
      const itemGo = go !== undefined && 'value' in go ? go : undefined;
      if (itemNode === undefined && itemGo === undefined) return true;
      for (let i = 0; i < value.length; i++) if (!this.visit(value[i], itemNode, itemGo, `${path}[${i}]`)) return false;
      return true;
    }
    if (!isObject(value)) return true;
    const properties = listing ? (s['properties'] as Record<string, SchemaObject> | undefined) : undefined;
    const additional = listing && isObject(s['additionalProperties']) ? s['additionalProperties'] : undefined;
    const lists = properties !== undefined || additional !== undefined;
    const fields =
      go !== undefined && 'component' in go ? (go.schema['properties'] as Record<string, SchemaObject> | undefined) : undefined;
    if (!lists && fields === undefined && !(go !== undefined && 'value' in go)) return true;
    for (const key of Object.keys(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      const declared = lists ? (properties?.[key] ?? additional) : undefined;
      if (lists && declared === undefined) this.unknown.push({ path: at, owner: value, key });
      if (!this.visit(value[key], declared, this.#goField(go, fields, key), at)) return false;
    }
    return true;
  }

  /** The type check's place at `key` of an object it is at: a struct's declared field, a map's value, or none. */
  #goField(go: GoAt | undefined, fields: Record<string, SchemaObject> | undefined, key: string): GoAt | undefined {
    if (go === undefined) return undefined;
    if ('value' in go) return go;
    if (fields === undefined) return undefined;
    const declared = BYTE_MAPS[`${go.component}.${key}`] ?? fields[key];
    return declared === undefined ? undefined : { value: declared, struct: structName(go.component), path: [...go.path, key] };
  }

  /**
   * Decodes `value` as Go would a value of `go.value`: an error message, or where the check goes on
   * (a struct for a `$ref`, the item or value schema for a list or map), or undefined where it stops.
   */
  #decodeValue(value: unknown, go: { value: SchemaObject; struct: string; path: readonly string[] }): string | GoAt | undefined {
    const { value: s, struct, path } = go;
    if (value === null || value === undefined) return undefined;
    const type = goType(this.#schemas, s);
    if (type === undefined) return undefined;
    const error = (kind: string): string =>
      `json: cannot unmarshal ${kind} into Go struct field ${struct}.${path.join('.')} of type ${type}`;
    const ref = refOf(s);
    if (ref !== undefined) return isObject(value) ? { schema: this.#schemas.resolve(s) ?? {}, component: ref, path } : error(goKind(value));
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
      case 'array':
        return Array.isArray(value) ? { value: s['items'] as SchemaObject, struct, path } : error(goKind(value));
      default:
        return isObject(value) ? { value: s['additionalProperties'] as SchemaObject, struct, path } : error(goKind(value));
    }
  }
}
