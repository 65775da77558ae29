/**
 * Desired states drawn from a CRD's schema, as Acto does: from the structural schema of a kind's spec,
 * sequences of valid specs a user could write one after the other — a base spec (required fields only),
 * then changes that set and unset optional fields, move numbers to their bounds, switch enum values,
 * grow and shrink lists, and roll a change back. Invariant: `specSequence` is a pure function of the
 * schema and the seed, so a seed names one sequence on any machine; every value it writes obeys the
 * bounds the schema states (type, minimum/maximum, enum, length and item counts; patterns and CEL
 * rules are not read).
 */
import { InvalidOptionError } from '../../meta/index.js';
import { mulberry32 } from './schedule.js';

/** The parts of an OpenAPI v3 schema node the generator reads. */
export interface SpecSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, SpecSchema>>;
  readonly required?: readonly string[];
  readonly items?: SpecSchema;
  readonly additionalProperties?: SpecSchema | boolean;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly exclusiveMaximum?: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly 'x-kubernetes-int-or-string'?: boolean;
}

/** A spec as the generator writes it: plain JSON, the `spec` of one object. */
export type Spec = Record<string, unknown>;

/** One field of the spec: its path from the spec's root, its schema, and whether it may be absent. */
interface Field {
  readonly path: readonly string[];
  readonly schema: SpecSchema;
  readonly optional: boolean;
}

/** Fields this deep or deeper are changed only as a whole (with their parent). */
const MAX_DEPTH = 3;

/** The spec with only its required fields, each at a plain value inside its bounds (its default where it has one). */
export function baseSpec(schema: SpecSchema): Spec {
  if (schema.type !== 'object')
    throw new InvalidOptionError('resource', `the spec's schema must be an object, got ${schema.type ?? 'no type'}`);
  return baseValue(schema) as Spec;
}

/**
 * The sequence of specs of `seed` (from 1): first each single change of the base spec (seed 1 … n),
 * then each of them rolled back to the base (n + 1 … 2n), then seeded random walks of up to
 * `steps` changes, where a step may also roll back to the spec before the previous one.
 */
export function specSequence(schema: SpecSchema, seed: number, steps = 3): Spec[] {
  if (!Number.isInteger(seed) || seed < 1) throw new InvalidOptionError('seed', `a seed of spec inputs is an integer from 1, got ${seed}`);
  const base = baseSpec(schema);
  const single = singleChanges(schema, base);
  if (seed <= single.length) return [base, single[seed - 1]!];
  if (seed <= 2 * single.length) return [base, single[seed - single.length - 1]!, base];
  const random = mulberry32(seed);
  const pick = <X>(xs: readonly X[]): X => xs[Math.floor(random() * xs.length)]!;
  const fields = fieldsOf(schema);
  const out = [base];
  const count = 1 + Math.floor(random() * steps);
  for (let i = 0; i < count; i++) {
    const prev = out[out.length - 1]!;
    if (out.length >= 2 && random() < 0.25) {
      out.push(out[out.length - 2]!);
      continue;
    }
    const next = changesOf(pick(fields), prev);
    out.push(next.length > 0 ? pick(next) : prev);
  }
  return out;
}

/** Every spec that differs from `base` by one change of one field. */
function singleChanges(schema: SpecSchema, base: Spec): Spec[] {
  return fieldsOf(schema).flatMap((f) => changesOf(f, base));
}

/** The specs `spec` becomes by changing `field` once: set, unset, to a bound, to another enum value, a list grown or shrunk. */
function changesOf(field: Field, spec: Spec): Spec[] {
  const current = getPath(spec, field.path);
  const parent = field.path.length > 1 ? getPath(spec, field.path.slice(0, -1)) : spec;
  if (parent === undefined) return []; // its parent object is unset: set the parent first
  const values =
    current === undefined ? [baseValue(field.schema), ...boundaries(field.schema, undefined)] : boundaries(field.schema, current);
  const out = values.filter((v) => !sameJson(v, current)).map((v) => setPath(spec, field.path, v));
  if (current !== undefined && field.optional) out.push(setPath(spec, field.path, undefined));
  return dedupe(out);
}

/** The values worth trying for a field whose value is `current` (undefined: unset). */
function boundaries(schema: SpecSchema, current: unknown): unknown[] {
  if (schema.enum) return [...schema.enum];
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const step = schema.type === 'integer' ? 1 : 0.5;
      const min = schema.minimum === undefined ? undefined : schema.minimum + (schema.exclusiveMinimum ? step : 0);
      const max = schema.maximum === undefined ? undefined : schema.maximum - (schema.exclusiveMaximum ? step : 0);
      const inRange = (n: number) => (min === undefined || n >= min) && (max === undefined || n <= max);
      const c = typeof current === 'number' ? current : undefined;
      const candidates = [min, max, 0, c === undefined ? undefined : c + step, c === undefined ? undefined : c - step];
      return candidates.filter((n): n is number => n !== undefined && inRange(n));
    }
    case 'boolean':
      return [true, false];
    case 'string': {
      const shortest = 'a'.repeat(schema.minLength ?? 0);
      const longest = 'z'.repeat(schema.maxLength ?? Math.max(schema.minLength ?? 0, 16));
      return shortest === '' && (schema.minLength ?? 0) > 0 ? [longest] : [shortest, longest];
    }
    case 'array': {
      const list = Array.isArray(current) ? current : [];
      const item = schema.items ? baseValue(schema.items, list.length) : 'a';
      const min = schema.minItems ?? 0;
      const max = schema.maxItems;
      const out: unknown[] = [];
      if (max === undefined || list.length < max) out.push([...list, item]);
      if (list.length > min) out.push(list.slice(0, -1));
      out.push(Array.from({ length: min }, (_, i) => (schema.items ? baseValue(schema.items, i) : 'a')));
      if (max !== undefined && max <= 8) out.push(Array.from({ length: max }, (_, i) => (schema.items ? baseValue(schema.items, i) : 'a')));
      return out;
    }
    default:
      return current === undefined ? [baseValue(schema)] : [];
  }
}

/** A plain valid value: the default, else the bound nearest 1 (or `salt` more), the first enum value, required fields only. */
function baseValue(schema: SpecSchema, salt = 0): unknown {
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.enum) return schema.enum[salt % schema.enum.length];
  if (schema['x-kubernetes-int-or-string']) return 1 + salt;
  switch (schema.type) {
    case 'integer':
    case 'number': {
      let n = 1 + salt;
      if (schema.maximum !== undefined) n = Math.min(n, schema.maximum - (schema.exclusiveMaximum ? 1 : 0));
      if (schema.minimum !== undefined) n = Math.max(n, schema.minimum + (schema.exclusiveMinimum ? 1 : 0));
      return n;
    }
    case 'boolean':
      return false;
    case 'string': {
      const s = `v${salt === 0 ? '' : salt}`;
      const min = schema.minLength ?? 0;
      const padded = s.length >= min ? s : s + 'a'.repeat(min - s.length);
      return schema.maxLength === undefined ? padded : padded.slice(0, Math.max(schema.maxLength, min));
    }
    case 'array': {
      const n = Math.max(schema.minItems ?? 0, 1);
      const count = schema.maxItems === undefined ? n : Math.min(n, schema.maxItems);
      return Array.from({ length: count }, (_, i) => (schema.items ? baseValue(schema.items, i + salt) : 'a'));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) {
        const prop = schema.properties?.[name];
        if (prop) out[name] = baseValue(prop, salt);
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** The fields of an object schema, nested objects' fields included down to `MAX_DEPTH`. */
function fieldsOf(schema: SpecSchema, prefix: readonly string[] = []): Field[] {
  const out: Field[] = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const path = [...prefix, name];
    out.push({ path, schema: prop, optional: !(schema.required ?? []).includes(name) });
    if (prop.type === 'object' && prop.properties && path.length < MAX_DEPTH) out.push(...fieldsOf(prop, path));
  }
  return out;
}

function getPath(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

/** A copy of `spec` with `value` at `path` (undefined: the field removed). */
function setPath(spec: Spec, path: readonly string[], value: unknown): Spec {
  const out = structuredClone(spec);
  let parent: Record<string, unknown> = out;
  for (const p of path.slice(0, -1)) parent = parent[p] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete parent[last];
  else parent[last] = structuredClone(value);
  return out;
}

/** The paths at which two specs differ, as `a.b: x → y` lines (`unset` for an absent field). */
export function specChanges(from: Spec, to: Spec, prefix = ''): string[] {
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
  const show = (v: unknown) => (v === undefined ? 'unset' : JSON.stringify(v));
  return keys.flatMap((k) => {
    const a = from[k];
    const b = to[k];
    if (sameJson(a, b)) return [];
    if (isPlainObject(a) && isPlainObject(b)) return specChanges(a, b, `${prefix}${k}.`);
    return [`${prefix}${k}: ${show(a)} → ${show(b)}`];
  });
}

/** `to` with the change at one path where it differs from `from` undone (for shrinking): one spec per such path. */
export function undoOneChange(from: Spec, to: Spec): Spec[] {
  const paths = diffPaths(from, to);
  return paths.map((path) => setPath(to, path, getPath(from, path)));
}

function diffPaths(from: unknown, to: unknown, prefix: readonly string[] = []): string[][] {
  if (sameJson(from, to)) return [];
  if (isPlainObject(from) && isPlainObject(to)) {
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
    return keys.flatMap((k) => diffPaths(from[k], to[k], [...prefix, k]));
  }
  return [[...prefix]];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Whether two JSON values are equal, key order aside. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameJson(a[k], b[k]));
  }
  return false;
}

function dedupe(specs: Spec[]): Spec[] {
  return specs.filter((s, i) => specs.findIndex((o) => sameJson(o, s)) === i);
}
