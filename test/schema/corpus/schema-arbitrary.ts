// fast-check arbitraries read from a generated CRD schema: values the schema accepts, and the same
// values with exactly one constraint broken — a wrong type, a required field removed, a string
// outside its enum, a string that misses its pattern, a length, item count or number past its
// bound, or an int32 or date-time that no reading of the format takes. Invariant: a valid value satisfies every keyword the schema holds (list-set items and
// list-map keys are unique, formats are met); a mutation changes one node and keeps every other
// constraint at that node met, so the broken constraint is the one its `kind` names.
import fc from 'fast-check';
import type { StructuralSchema } from 'kube-converge/schema';

export type MutationKind = 'type' | 'required' | 'enum' | 'pattern' | 'bound' | 'format';

/** A valid value with one constraint broken at `path`. */
export interface Mutation {
  kind: MutationKind;
  path: string;
  /** The whole value, with the node at `path` replaced. */
  value: unknown;
  /** What the node at `path` now holds. */
  replacement: unknown;
}

type Path = readonly (string | number)[];

/** Values `schema` accepts; lists hold at most `maxItems` entries (or the schema's own bound) to keep objects small. */
export function validValue(schema: StructuralSchema, maxItems = 2): fc.Arbitrary<unknown> {
  if (schema['x-kubernetes-int-or-string'] === true) {
    return fc.oneof(fc.integer({ min: 0, max: 65535 }), stringValue(schema));
  }
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string':
      return stringValue(schema);
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1000), max: Math.min(schema.maximum ?? 1000, 1000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return arrayValue(schema, maxItems);
    case 'object':
      return objectValue(schema, maxItems);
    default:
      throw new Error(`no values for a schema of type ${String(schema.type)}`);
  }
}

function stringValue(schema: StructuralSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 12, Math.max(minLength, 12));
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  }
  if (schema.format !== undefined) throw new Error(`no values for the string format ${schema.format}`);
  if (schema.pattern !== undefined) {
    // Only the schema's own bounds here: a shorter cap would throw most of what the pattern generates away.
    const max = schema.maxLength ?? Infinity;
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => [...s].length >= minLength && [...s].length <= max);
  }
  return fc.string({ minLength, maxLength });
}

function arrayValue(schema: StructuralSchema, maxItems: number): fc.Arbitrary<unknown[]> {
  const items = validValue(schema.items ?? {}, maxItems);
  const constraints = {
    minLength: schema.minItems ?? 0,
    maxLength: Math.min(schema.maxItems ?? maxItems, Math.max(schema.minItems ?? 0, maxItems)),
  };
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set') return fc.uniqueArray(items, constraints);
  if (listType === 'map') {
    const keys = schema['x-kubernetes-list-map-keys'] ?? [];
    return fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(keys.map((k) => (v as Record<string, unknown>)[k])) });
  }
  return fc.array(items, constraints);
}

function objectValue(schema: StructuralSchema, maxItems: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const named = fc.record(Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, validValue(s, maxItems)])), {
    requiredKeys: schema.required ?? [],
  }) as fc.Arbitrary<Record<string, unknown>>;
  const values = schema.additionalProperties;
  if (values === undefined) return named;
  const free = fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9.-]{0,8}$/), validValue(values, maxItems), { maxKeys: maxItems });
  return fc.tuple(named, free).map(([n, f]) => ({ ...f, ...n }));
}

/** One node of a value with the schema that governs it. */
interface Site {
  path: Path;
  schema: StructuralSchema;
  value: unknown;
}

function sites(schema: StructuralSchema, value: unknown, path: Path, out: Site[]): Site[] {
  out.push({ path, schema, value });
  if (Array.isArray(value) && schema.items !== undefined) value.forEach((v, i) => sites(schema.items!, v, [...path, i], out));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const s = schema.properties?.[k] ?? schema.additionalProperties;
      if (s !== undefined) sites(s, v, [...path, k], out);
    }
  }
  return out;
}

/**
 * `value` (valid against `schema`) with one constraint broken somewhere below `root`, or nothing
 * when no node of the value has a constraint of that kind.
 */
export function mutations(schema: StructuralSchema, value: unknown, root: string, kind: MutationKind): fc.Arbitrary<Mutation> | undefined {
  const candidates = sites(schema, value, [], [])
    .map((site) => ({ site, broken: breaking(site, kind) }))
    .filter((c): c is { site: Site; broken: fc.Arbitrary<unknown> } => c.broken !== undefined);
  if (candidates.length === 0) return undefined;
  return fc.constantFrom(...candidates).chain(({ site, broken }) =>
    broken.map((replacement) => ({
      kind,
      path: [root, ...site.path].join('.'),
      value: replaceAt(value, site.path, replacement),
      replacement,
    })),
  );
}

/** What replaces the node to break a constraint of `kind` there (undefined: nothing to break). */
function breaking({ schema, value }: Site, kind: MutationKind): fc.Arbitrary<unknown> | undefined {
  switch (kind) {
    case 'type':
      return fc.constantFrom(...wrongTypes(schema));
    case 'required': {
      const removable = (schema.required ?? []).filter((k) => schema.properties?.[k]?.default === undefined);
      if (removable.length === 0 || typeof value !== 'object' || value === null) return undefined;
      return fc.constantFrom(...removable).map((k) => {
        const { [k]: _, ...rest } = value as Record<string, unknown>;
        return rest;
      });
    }
    case 'enum': {
      const allowed = schema.enum as unknown[] | undefined;
      if (allowed === undefined || schema.type !== 'string') return undefined;
      return withinLength(schema, fc.string({ minLength: 1, maxLength: 12 })).filter((s) => !allowed.includes(s));
    }
    case 'pattern': {
      if (schema.pattern === undefined || schema.enum !== undefined) return undefined;
      const re = new RegExp(schema.pattern);
      const near = typeof value === 'string' ? [fc.constant(`${value} `), fc.constant(`${value}!`)] : [];
      return withinLength(schema, fc.oneof(fc.string({ maxLength: 12 }), ...near)).filter((s) => !re.test(s));
    }
    case 'bound':
      return pastBound(schema);
    case 'format':
      return schema.format === undefined ? undefined : OUTSIDE_FORMAT[schema.format];
  }
}

/**
 * Values outside a format however it is read. int64 is left out: JSON numbers past 2^53 are read
 * differently by different validators, so no value is outside it for all of them.
 */
const OUTSIDE_FORMAT: Readonly<Record<string, fc.Arbitrary<unknown>>> = {
  int32: fc.constantFrom(2 ** 31, -(2 ** 31) - 1),
  'date-time': fc.constantFrom('yesterday', '2024-01-01', '2024-01-01T25:00:00Z', '2024-02-30T00:00:00Z'),
};

/** Values of another JSON type than the schema's (int-or-string: neither integer nor string). */
function wrongTypes(schema: StructuralSchema): unknown[] {
  if (schema['x-kubernetes-int-or-string'] === true) return [true, [1], { a: 1 }];
  switch (schema.type) {
    case 'string':
      return [7, true, ['x'], { a: 'x' }];
    case 'integer':
      return ['7', true, 1.5, [1]];
    case 'number':
      return ['7', true, [1]];
    case 'boolean':
      return ['true', 1, [true]];
    case 'array':
      return ['x', 1, { a: 1 }];
    case 'object':
      return ['x', 1, [{}]];
    default:
      return [];
  }
}

/** Strings kept inside the node's length bounds, so only the constraint under test breaks. */
const withinLength = (schema: StructuralSchema, strings: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  strings.filter((s) => [...s].length >= (schema.minLength ?? 0) && (schema.maxLength === undefined || [...s].length <= schema.maxLength));

/** A value past one bound; only where nothing else (an enum, a pattern, a format) constrains the node's values. */
function pastBound(schema: StructuralSchema): fc.Arbitrary<unknown> | undefined {
  if (schema.enum !== undefined || schema.pattern !== undefined || schema.format !== undefined) return undefined;
  const options: fc.Arbitrary<unknown>[] = [];
  if (schema.type === 'string') {
    if (schema.minLength !== undefined && schema.minLength > 0) options.push(fc.constant('a'.repeat(schema.minLength - 1)));
    if (schema.maxLength !== undefined) options.push(fc.constant('a'.repeat(schema.maxLength + 1)));
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    if (schema.minimum !== undefined) options.push(fc.constant(schema.minimum - 1));
    if (schema.maximum !== undefined) options.push(fc.constant(schema.maximum + 1));
  }
  return options.length === 0 ? undefined : fc.oneof(...options);
}

function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaceAt(v, rest, replacement) : v));
  const record = value as Record<string, unknown>;
  return { ...record, [head as string]: replaceAt(record[head as string], rest, replacement) };
}
