/**
 * The CEL type of each node of a structural schema, as kube-apiserver declares it for rules:
 * objects with properties are objects with exactly those fields (plus `apiVersion`, `kind` and
 * `metadata.name`/`metadata.generateName` at the root and in embedded resources), objects with
 * `additionalProperties` are maps, arrays are lists, `integer` is `int`, `number` is `double`,
 * strings of format `date`/`date-time`/`duration`/`byte` are timestamps, durations and bytes,
 * and int-or-string is either. Size bounds come from `maxLength`/`maxItems`/`maxProperties`.
 * Field names are CEL's escaped names (`__namespace__`).
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { celFieldName, type CelType } from '../cel/index.js';
import { extensionsOf } from './extensions.js';

const STRING: CelType = { kind: 'string' };
const EMBEDDED_FIELDS: Readonly<Record<string, CelType>> = {
  apiVersion: STRING,
  kind: STRING,
  metadata: { kind: 'object', fields: { name: STRING, generateName: STRING } },
};

const types = new WeakMap<JSONSchemaProps, CelType>();

/** The CEL type of values of `schema`; `root` adds the fields every object's root exposes. */
export function celTypeOf(schema: JSONSchemaProps, root = false): CelType {
  if (!root) {
    const known = types.get(schema);
    if (known !== undefined) return known;
  }
  const t = build(schema, root);
  if (!root) types.set(schema, t);
  return t;
}

function build(s: JSONSchemaProps, root: boolean): CelType {
  const ext = extensionsOf(s);
  if (ext['x-kubernetes-int-or-string'] === true) return withMax({ kind: 'intOrString' }, 'maxLength', s.maxLength);
  switch (s.type) {
    case 'boolean':
      return { kind: 'bool' };
    case 'integer':
      return { kind: 'int' };
    case 'number':
      return { kind: 'double' };
    case 'string':
      if (s.format === 'date' || s.format === 'date-time' || s.format === 'datetime') return { kind: 'timestamp' };
      if (s.format === 'duration') return { kind: 'duration' };
      if (s.format === 'byte') return withMax({ kind: 'bytes' }, 'maxLength', s.maxLength);
      return withMax({ kind: 'string' }, 'maxLength', s.maxLength);
    case 'array': {
      const items = s.items !== undefined && !Array.isArray(s.items) ? celTypeOf(s.items as JSONSchemaProps) : ({ kind: 'dyn' } as CelType);
      const listType = ext['x-kubernetes-list-type'];
      return withMax({ kind: 'list', items, ...(listType === 'set' || listType === 'map' ? { listType } : {}) }, 'maxItems', s.maxItems);
    }
    case 'object': {
      if (typeof s.additionalProperties === 'object') {
        return withMax({ kind: 'map', values: celTypeOf(s.additionalProperties) }, 'maxProperties', s.maxProperties);
      }
      const fields: Record<string, CelType> = {};
      for (const [name, child] of Object.entries(s.properties ?? {})) {
        const celName = celFieldName(name);
        if (celName !== undefined) fields[celName] = celTypeOf(child);
      }
      if (root || ext['x-kubernetes-embedded-resource'] === true) Object.assign(fields, EMBEDDED_FIELDS);
      return withMax({ kind: 'object', fields }, 'maxProperties', s.maxProperties);
    }
    default:
      return { kind: 'dyn' };
  }
}

function withMax<T extends CelType>(t: T, key: 'maxLength' | 'maxItems' | 'maxProperties', value: number | undefined): T {
  return value === undefined ? t : { ...t, [key]: value };
}
