/**
 * How each field of a kind merges, for managed fields and server-side apply: lists are `map`s keyed
 * by some element fields (containers by `name`, ports by `containerPort` and `protocol`), `set`s of
 * primitives (finalizers), or `atomic` (everything else, as on the real server); maps merge field by
 * field unless `atomic` (a label selector is one value). Built-ins read the strategy the patch module
 * derives from their schemas' list and map types; custom resources read their CRD schema's
 * `x-kubernetes-list-type`, `-list-map-keys` and `-map-type` the same way. `metadata` is ObjectMeta's
 * for every kind.
 */
import type { FieldStrategy, ListType } from '../patch/index.js';
import { objectMetaStrategy, strategyFor } from '../patch/index.js';
import type { JSONSchemaProps } from '../served-resource.js';

/** A map list's `defaults` key the elements that omit an optional key (a port without `protocol` is `TCP`). */
export type ListKind = ListType;

export interface Shape {
  field(name: string): Shape;
  /** The shape of the elements, when this value is a list. */
  items(): Shape;
  list(): ListKind;
  /** True when this value, a map, is owned and replaced whole, as a scalar is. */
  atomic(): boolean;
}

const ATOMIC: ListKind = { kind: 'atomic' };

const empty: Shape = { field: () => empty, items: () => empty, list: () => ATOMIC, atomic: () => false };

function fromStrategy(s: FieldStrategy | undefined): Shape {
  if (!s) return empty;
  return {
    field: (name) => fromStrategy(s.fields?.[name] ?? s.values),
    items: () => fromStrategy(s.items),
    list: () => s.listType ?? ATOMIC,
    atomic: () => s.atomic === true,
  };
}

/** A map list's key fields, with the `default`s of those an element may omit. */
function keyedBy(keys: string[], items: JSONSchemaProps | undefined): ListKind {
  const defaults = Object.fromEntries(
    keys.flatMap((k) => (items?.properties?.[k]?.default !== undefined ? [[k, items.properties[k].default]] : [])),
  );
  return Object.keys(defaults).length > 0 ? { kind: 'map', keys, defaults } : { kind: 'map', keys };
}

function fromSchema(s: JSONSchemaProps | undefined): Shape {
  if (!s) return empty;
  const ext = s as Record<string, unknown>;
  const items = Array.isArray(s.items) ? undefined : (s.items as JSONSchemaProps | undefined);
  return {
    field: (name) => fromSchema(s.properties?.[name] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined)),
    items: () => fromSchema(items),
    list: () => {
      const type = ext['x-kubernetes-list-type'];
      const keys = ext['x-kubernetes-list-map-keys'];
      if (type === 'map' && Array.isArray(keys) && keys.length > 0) return keyedBy(keys as string[], items);
      if (type === 'set') return { kind: 'set' };
      return ATOMIC;
    },
    atomic: () => ext['x-kubernetes-map-type'] === 'atomic',
  };
}

/**
 * What `shapeOf` reads of a kind: a registry strategy has it. Named here, not imported, because
 * apply sits below the registry.
 */
export interface ShapedKind {
  readonly group: string;
  readonly kind: string;
  /** A custom resource, whose shape comes from its CRD schema rather than the built-in data. */
  readonly custom: boolean;
  version(name: string): { schema?: JSONSchemaProps } | undefined;
}

/** The shape of whole objects of a kind at a version; `metadata` always has ObjectMeta's shape. */
export function shapeOf(strategy: ShapedKind, version: string): Shape {
  const inner = strategy.custom
    ? fromSchema(strategy.version(version)?.schema)
    : fromStrategy(strategyFor({ group: strategy.group, version, kind: strategy.kind }));
  // ObjectMeta's strategy is looked up only when asked for, so a custom resource written without
  // labels, annotations, finalizers or owners does not load the built-in schema data.
  const field = (name: string): Shape => (name === 'metadata' ? fromStrategy(objectMetaStrategy()) : inner.field(name));
  return { field, items: () => empty, list: () => ATOMIC, atomic: () => false };
}

/** The FieldsV1 key of a list element (`k:{"name":"c"}`, `v:"x"`), or undefined for atomic lists. */
export function elementKey(list: ListKind, element: unknown): string | undefined {
  if (list.kind === 'set') return element !== null && typeof element !== 'object' ? `v:${JSON.stringify(element)}` : undefined;
  if (list.kind !== 'map' || typeof element !== 'object' || element === null || Array.isArray(element)) return undefined;
  const e = element as Record<string, unknown>;
  const value = (k: string): unknown => e[k] ?? list.defaults?.[k];
  if (list.keys.some((k) => value(k) === undefined)) return undefined;
  return `k:${JSON.stringify(Object.fromEntries(list.keys.map((k) => [k, value(k)])))}`;
}
