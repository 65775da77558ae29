/**
 * How each field of a built-in kind merges, read once per type from the `x-kubernetes-*` extensions
 * of its schema in the built-in schema data. Strategic merge patch reads the patch strategy and
 * merge key (what the real server takes from Go struct tags); server-side apply reads the list and
 * map types as structured-merge-diff reads an OpenAPI schema: `list-type: map` with its
 * `list-map-keys` is keyed, `set` is a set, `atomic` one value; a list without a list type but with
 * patch strategy `merge` is keyed by its merge key, or a set without one (the rule for lists marked
 * before list types existed); any other list is atomic, and `map-type: atomic` makes a map one value.
 * The two can differ (ports merge by `containerPort` in a patch, by `containerPort` and `protocol`
 * in an apply). Invariant: every kind in the built-in schema data has a strategy; no other kind has.
 */
import type { GroupVersionKind } from '../../meta/index.js';
import { builtinSchemas, refOf, type SchemaObject } from '../builtin-schemas/index.js';

/**
 * How server-side apply tells a list's elements apart: by key fields (`defaults` standing in for an
 * optional key an element omits), by value, or not at all (the whole list is one value).
 */
export type ListType =
  { kind: 'map'; keys: readonly string[]; defaults?: Readonly<Record<string, unknown>> } | { kind: 'set' } | { kind: 'atomic' };

/** How one field merges; for a list, `items` says how its elements do, for a map `fields` or `values`. */
export interface FieldStrategy {
  /** Strategic merge patch: a list of maps merged element by element, matched on this key. */
  mergeKey?: string;
  /** Strategic merge patch: a list of primitives merged as a set. */
  mergePrimitives?: boolean;
  /** Strategic merge patch: a map whose fields `$retainKeys` clears when it does not list them. */
  retainKeys?: boolean;
  /** Server-side apply: how a list's elements are told apart; a list without one is atomic. */
  listType?: ListType;
  /** Server-side apply: a map owned and replaced whole, like a scalar. */
  atomic?: boolean;
  /** The strategies of this object's fields. */
  fields?: Readonly<Record<string, FieldStrategy>>;
  /** The strategy of every value of this map (`additionalProperties`). */
  values?: FieldStrategy;
  /** The strategy of this list's elements. */
  items?: FieldStrategy;
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

const isSchema = (v: unknown): v is SchemaObject => v !== null && typeof v === 'object' && !Array.isArray(v);

const byComponent = new Map<string, FieldStrategy>();

/** The strategy of a component, memoised; registered before its fields, since types nest themselves (JSONSchemaProps). */
function componentStrategy(name: string): FieldStrategy {
  const known = byComponent.get(name);
  if (known !== undefined) return known;
  const schema = builtinSchemas().schema(name);
  const fields: Record<string, FieldStrategy> = {};
  const strategy: FieldStrategy = schema?.['x-kubernetes-map-type'] === 'atomic' ? { atomic: true, fields } : { fields };
  byComponent.set(name, strategy);
  const properties = schema?.['properties'];
  if (isSchema(properties)) for (const [field, s] of Object.entries(properties)) if (isSchema(s)) fields[field] = nodeStrategy(s);
  return strategy;
}

/** The strategy of a field's (or an element's, or a map value's) schema. */
function nodeStrategy(node: SchemaObject): FieldStrategy {
  // What the field itself says, over what its type says (a Deployment's `strategy` is `retainKeys`).
  const own: FieldStrategy = {
    ...(node['x-kubernetes-map-type'] === 'atomic' ? { atomic: true } : {}),
    ...(patchStrategies(node).includes('retainKeys') ? { retainKeys: true } : {}),
  };
  const ref = refOf(node);
  if (ref !== undefined) return Object.keys(own).length === 0 ? componentStrategy(ref) : { ...componentStrategy(ref), ...own };
  const items = node['items'];
  if (node['type'] === 'array' && isSchema(items)) return { ...listStrategy(node, items), ...own };
  const values = node['additionalProperties'];
  return { ...(isSchema(values) ? { values: nodeStrategy(values) } : {}), ...own };
}

const patchStrategies = (node: SchemaObject): string[] => {
  const value = node['x-kubernetes-patch-strategy'];
  return typeof value === 'string' ? value.split(',') : [];
};

function listStrategy(node: SchemaObject, items: SchemaObject): FieldStrategy {
  const merge = patchStrategies(node).includes('merge');
  const key = node['x-kubernetes-patch-merge-key'];
  const mergeKey = merge && typeof key === 'string' ? key : undefined;
  const listType = applyListType(node, mergeKey, merge, items);
  return {
    ...(mergeKey !== undefined ? { mergeKey } : merge ? { mergePrimitives: true } : {}),
    ...(listType === undefined ? {} : { listType }),
    items: nodeStrategy(items),
  };
}

/** How server-side apply keys a list: its list type, else the legacy patch-strategy rule; undefined is atomic. */
function applyListType(node: SchemaObject, mergeKey: string | undefined, merge: boolean, items: SchemaObject): ListType | undefined {
  const listType = node['x-kubernetes-list-type'];
  const keys = node['x-kubernetes-list-map-keys'];
  if (listType === 'map' && Array.isArray(keys) && keys.length > 0 && keys.every((k) => typeof k === 'string')) return keyedBy(keys, items);
  if (listType === 'set') return { kind: 'set' };
  if (listType !== undefined) return undefined;
  if (mergeKey !== undefined) return keyedBy([mergeKey], items);
  return merge ? { kind: 'set' } : undefined;
}

/** A map list's key fields, with the schema defaults of those an element may omit. */
function keyedBy(keys: readonly string[], items: SchemaObject): ListType {
  const properties = builtinSchemas().resolve(items)?.['properties'];
  const defaults = Object.fromEntries(
    keys.flatMap((k) => {
      const field = isSchema(properties) ? properties[k] : undefined;
      return isSchema(field) && field['default'] !== undefined ? [[k, field['default']]] : [];
    }),
  );
  return Object.keys(defaults).length > 0 ? { kind: 'map', keys, defaults } : { kind: 'map', keys };
}

/** The merge strategy of a built-in kind, or undefined for kinds the built-in schema data lacks (custom resources). */
export function strategyFor(gvk: GroupVersionKind): FieldStrategy | undefined {
  const component = builtinSchemas().componentOf(gvk);
  return component === undefined ? undefined : componentStrategy(component);
}

/** The merge strategy of `metadata`, the same for every kind (built-in or custom). */
export function objectMetaStrategy(): FieldStrategy {
  return componentStrategy(OBJECT_META);
}

/** True for the built-in kinds, which all accept `application/strategic-merge-patch+json`. */
export function supportsStrategicMerge(gvk: GroupVersionKind): boolean {
  return builtinSchemas().componentOf(gvk) !== undefined;
}
