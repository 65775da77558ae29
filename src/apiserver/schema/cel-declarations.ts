/**
 * The CEL type of each node of a structural schema, as kube-apiserver declares it for rules:
 * objects with properties are objects with exactly those fields (plus `apiVersion`, `kind` and
 * `metadata.name`/`metadata.generateName` at the root and in embedded resources), objects with
 * `additionalProperties` are maps, arrays are lists, `integer` is `int`, `number` is `double`,
 * strings of format `date`/`date-time`/`duration`/`byte` are timestamps, durations and bytes,
 * and int-or-string is either. Size bounds are apiextensions' (`SchemaDeclType`): `maxItems` and
 * `maxProperties` as declared; a string's size four times its `maxLength` (a character can take
 * four bytes), else its longest `enum` value, else a whole request; dates and durations at most 32;
 * and an object's shortest JSON form counts its required fields without a default, which bounds
 * how many fit in an unbounded list. Field names are CEL's escaped names (`__namespace__`).
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { celFieldName, minSerializedSize, type CelType } from '../cel/index.js';
import { extensionsOf } from './extensions.js';

const STRING: CelType = { kind: 'string' };
/** A DNS subdomain's longest length: what `metadata.name` can be, and `generateName` one less (the suffix takes at least one). */
const NAME_MAX_LENGTH = 253;

/**
 * The fields every resource root exposes to rules, with `metadata.name` and `generateName` capped
 * at the name length (or the schema's own shorter `maxLength`), as apiextensions declares them.
 */
function embeddedFields(s: JSONSchemaProps): Record<string, CelType> {
  const meta = s.properties?.['metadata']?.properties ?? {};
  const capped = (declared: number | undefined, cap: number): CelType => ({
    kind: 'string',
    maxLength: Math.max(0, Math.min(declared ?? cap, cap)) * 4,
  });
  return {
    apiVersion: STRING,
    kind: STRING,
    metadata: {
      kind: 'object',
      fields: {
        name: capped(meta['name']?.maxLength, NAME_MAX_LENGTH),
        generateName: capped(meta['generateName']?.maxLength, NAME_MAX_LENGTH - 1),
      },
    },
  };
}

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
  const fourPerCharacter = s.maxLength === undefined ? undefined : Math.max(0, s.maxLength) * 4;
  if (ext['x-kubernetes-int-or-string'] === true) return withMax({ kind: 'intOrString' }, 'maxLength', fourPerCharacter);
  switch (s.type) {
    case 'boolean':
      return { kind: 'bool' };
    case 'integer':
      return { kind: 'int' };
    case 'number':
      return { kind: 'double' };
    case 'string':
      if (s.format === 'date') return { kind: 'timestamp', maxLength: DATE_SIZE, minSize: DATE_SIZE };
      if (s.format === 'date-time' || s.format === 'datetime') return { kind: 'timestamp', maxLength: 32, minSize: 21 };
      if (s.format === 'duration') return { kind: 'duration', maxLength: 32 };
      if (s.format === 'byte')
        return withMax({ kind: 'bytes' }, 'maxLength', s.maxLength === undefined ? undefined : Math.max(0, s.maxLength));
      return withMax({ kind: 'string' }, 'maxLength', fourPerCharacter ?? longestEnum(s));
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
      const required = new Set(s.required ?? []);
      // `{}`, plus each required field the server does not default: `"name":` and its shortest value.
      let minSize = 2;
      for (const [name, child] of Object.entries(s.properties ?? {})) {
        const celName = celFieldName(name);
        if (celName !== undefined) fields[celName] = celTypeOf(child);
        if (required.has(name) && child.default === undefined) minSize += name.length + minSerializedSize(celTypeOf(child)) + 4;
      }
      if (root || ext['x-kubernetes-embedded-resource'] === true) Object.assign(fields, embeddedFields(s));
      return withMax({ kind: 'object', fields, minSize }, 'maxProperties', s.maxProperties);
    }
    default:
      return { kind: 'dyn' };
  }
}

/** JSON's `"YYYY-MM-DD"`. */
const DATE_SIZE = 12;

/** A string enum's size is its longest value's, as apiextensions estimates it. */
function longestEnum(s: JSONSchemaProps): number | undefined {
  if (s.enum === undefined || s.enum.length === 0) return undefined;
  return Math.max(0, ...s.enum.map((v) => (typeof v === 'string' ? v.length : 0)));
}

function withMax<T extends CelType>(t: T, key: 'maxLength' | 'maxItems' | 'maxProperties', value: number | undefined): T {
  return value === undefined ? t : { ...t, [key]: value };
}
