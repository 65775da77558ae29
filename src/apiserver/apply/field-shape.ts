/**
 * How each field of a kind merges, for managed fields and server-side apply: lists are `map`s keyed
 * by some element fields (containers by `name`, ports by `containerPort` and `protocol`, CR lists
 * marked `x-kubernetes-list-type: map`), `set`s of primitives (finalizers, `x-kubernetes-list-type:
 * set`), or `atomic` (everything else, as on the real server). Built-ins read the strategic-merge
 * metadata of the patch module — the built-in schemas carry no list markers — including the few lists
 * whose list-map-keys are wider than their patch merge key; custom resources read their schema's
 * markers. `metadata` is the same for all.
 */
import type { FieldStrategy } from '../patch/index.js';
import { strategyFor } from '../patch/index.js';
import type { Strategy } from '../registry/strategy.js';
import type { JSONSchemaProps } from '../served-resource.js';

/** A map list's `defaults` key the elements that omit an optional key (a port without `protocol` is `TCP`). */
export type ListKind = { kind: 'map'; keys: string[]; defaults?: Record<string, unknown> } | { kind: 'set' } | { kind: 'atomic' };

export interface Shape {
  field(name: string): Shape;
  /** The shape of the elements, when this value is a list. */
  items(): Shape;
  list(): ListKind;
}

const ATOMIC: ListKind = { kind: 'atomic' };

const empty: Shape = { field: () => empty, items: () => empty, list: () => ATOMIC };

const META: Shape = {
  field: (name) => (name === 'finalizers' ? setShape : name === 'ownerReferences' ? mapShape(['uid'], empty) : empty),
  items: () => empty,
  list: () => ATOMIC,
};
const setShape: Shape = { field: () => empty, items: () => empty, list: () => ({ kind: 'set' }) };
function mapShape(keys: string[], items: Shape): Shape {
  return { field: () => empty, items: () => items, list: () => ({ kind: 'map', keys }) };
}

function fromStrategy(s: FieldStrategy | undefined): Shape {
  if (!s) return empty;
  return {
    field: (name) => fromStrategy(s.fields?.[name]),
    items: () => fromStrategy(s),
    list: () => {
      if (s.listMapKeys)
        return { kind: 'map', keys: [...s.listMapKeys.keys], ...(s.listMapKeys.defaults ? { defaults: s.listMapKeys.defaults } : {}) };
      if (s.mergeKey) return { kind: 'map', keys: [s.mergeKey] };
      return s.mergePrimitives ? { kind: 'set' } : ATOMIC;
    },
  };
}

function fromSchema(s: JSONSchemaProps | undefined): Shape {
  if (!s) return empty;
  const ext = s as Record<string, unknown>;
  return {
    field: (name) => fromSchema(s.properties?.[name] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined)),
    items: () => fromSchema(Array.isArray(s.items) ? undefined : (s.items as JSONSchemaProps | undefined)),
    list: () => {
      const type = ext['x-kubernetes-list-type'];
      const keys = ext['x-kubernetes-list-map-keys'];
      if (type === 'map' && Array.isArray(keys) && keys.length > 0) return { kind: 'map', keys: keys as string[] };
      if (type === 'set') return { kind: 'set' };
      return ATOMIC;
    },
  };
}

/** The shape of whole objects of a kind at a version; `metadata` always has ObjectMeta's shape. */
export function shapeOf(strategy: Strategy, version: string): Shape {
  const inner = strategy.custom
    ? fromSchema(strategy.version(version)?.schema)
    : fromStrategy(strategyFor({ group: strategy.group, version, kind: strategy.kind }));
  return { field: (name) => (name === 'metadata' ? META : inner.field(name)), items: () => empty, list: () => ATOMIC };
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
