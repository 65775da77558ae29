/**
 * The new and the old value of an update, walked together down the schema, as apiextensions'
 * validation ratcheting pairs them (`CorrelatedObject` in k8s.io/apiserver/pkg/cel/common): a
 * property or map entry finds its old self by name (when both objects have it and the schema
 * declares it, by name or `additionalProperties`), an item of an `x-kubernetes-list-type: map`
 * list by its map keys; items of sets and atomic lists have no old self. A node is unchanged when
 * it equals its old value as kube-apiserver compares them: through its correlated children, so an
 * object holding a field the schema does not declare is never unchanged, and a list that cannot be
 * correlated item by item is compared whole. Results are cached per node; a node is built lazily
 * and never mutates the values it holds.
 *
 * https://github.com/kubernetes/apiserver/blob/master/pkg/cel/common/equality.go
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { jsonEqual } from '../../meta/index.js';
import { extensionsOf } from './extensions.js';
import { isJsonObject } from './json-object.js';

export class CorrelatedObject {
  #equal: boolean | undefined;
  readonly #children = new Map<string | number, CorrelatedObject | undefined>();
  #oldItem: ((item: unknown) => unknown) | undefined;

  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly schema: JSONSchemaProps,
  ) {}

  /** The node of property or map key `field`, or undefined when it has no old self. */
  key(field: string): CorrelatedObject | undefined {
    if (this.#children.has(field)) return this.#children.get(field);
    let child: CorrelatedObject | undefined;
    const { value, old, schema } = this;
    if (isJsonObject(value) && isJsonObject(old) && Object.hasOwn(value, field) && Object.hasOwn(old, field)) {
      const declared =
        schema.properties?.[field] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (declared !== undefined) child = new CorrelatedObject(value[field], old[field], declared);
    }
    this.#children.set(field, child);
    return child;
  }

  /** The node of list item `index`, or undefined when the list is not a list-map or the item's keys are new. */
  index(index: number): CorrelatedObject | undefined {
    if (this.#children.has(index)) return this.#children.get(index);
    let child: CorrelatedObject | undefined;
    const { value, old, schema } = this;
    const items = schema.items;
    if (Array.isArray(value) && Array.isArray(old) && index < value.length && extensionsOf(schema)['x-kubernetes-list-type'] === 'map') {
      this.#oldItem ??= mapListLookup(schema, old);
      const oldItem = this.#oldItem(value[index]);
      if (oldItem !== undefined && items !== undefined && !Array.isArray(items)) {
        child = new CorrelatedObject(value[index], oldItem, items as JSONSchemaProps);
      }
    }
    this.#children.set(index, child);
    return child;
  }

  /** Whether the new value equals the old one, compared through the correlated children. */
  unchanged(): boolean {
    this.#equal ??= this.#compare();
    return this.#equal;
  }

  #compare(): boolean {
    const { value, old } = this;
    if (value === null || value === undefined || old === null || old === undefined) {
      return (value === null || value === undefined) && (old === null || old === undefined);
    }
    if (Array.isArray(value) || Array.isArray(old)) {
      if (!Array.isArray(value) || !Array.isArray(old) || value.length !== old.length) return false;
      // Lists that are not list-maps have no item nodes: they are one value.
      if (extensionsOf(this.schema)['x-kubernetes-list-type'] !== 'map') return jsonEqual(value, old);
      return value.every((_, i) => this.index(i)?.unchanged() === true);
    }
    if (isJsonObject(value) || isJsonObject(old)) {
      if (!isJsonObject(value) || !isJsonObject(old)) return false;
      const keys = Object.keys(value);
      if (keys.length !== Object.keys(old).length) return false;
      return keys.every((k) => this.key(k)?.unchanged() === true);
    }
    return value === old;
  }
}

/**
 * Finds, for an item of an `x-kubernetes-list-type: map` list, the first old item with the same
 * map keys; an item missing a key, or with a key that is not a scalar, has none.
 */
export function mapListLookup(schema: JSONSchemaProps, oldList: readonly unknown[]): (item: unknown) => unknown {
  const keys = extensionsOf(schema)['x-kubernetes-list-map-keys'] ?? [];
  if (keys.length === 0) return () => undefined;
  const keyOf = (item: unknown): string | undefined => {
    if (!isJsonObject(item)) return undefined;
    const parts: unknown[] = [];
    for (const k of keys) {
      const v = item[k];
      if (!Object.hasOwn(item, k) || (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')) return undefined;
      parts.push(v);
    }
    return JSON.stringify(parts);
  };
  let byKey: Map<string, unknown> | undefined;
  return (item) => {
    const key = keyOf(item);
    if (key === undefined) return undefined;
    if (byKey === undefined) {
      byKey = new Map();
      for (const o of oldList) {
        const k = keyOf(o);
        if (k !== undefined && !byKey.has(k)) byKey.set(k, o);
      }
    }
    return byKey.get(key);
  };
}
