/**
 * Item keys: how a queue decides that two items are "the same" for de-duplication, the dirty and
 * processing sets, delayed adds and per-item rate-limiter history. Go compares items with `==`;
 * JavaScript compares objects by identity, so every queue maps an item to a string key first.
 * Invariant: equal keys mean one queue entry; the item handed out by `get()` is the first one added
 * for its key since it was last handed out.
 */
import { InvalidOptionError } from '../meta/index.js';

/** Maps a queue item to the string that identifies it. Must be pure and stable for an item's lifetime. */
export type KeyOf<T> = (item: T) => string;

/**
 * The default key function:
 * - a string is its own key;
 * - a number, boolean or bigint is keyed by `String(x)`;
 * - a `NamespacedName`-shaped object (a string `name`, an optional string `namespace`, no other
 *   defined fields) is keyed `namespace/name`, or `name` when the namespace is empty or absent, exactly
 *   like meta's `keyOf`, so reconcile requests `{ namespace, name }` de-duplicate by value and
 *   `{ name: 'x' }` equals `{ namespace: '', name: 'x' }`;
 * - any other object (or array) is keyed by its JSON with object fields sorted by name at every depth
 *   (fields whose value is `undefined` are left out, as JSON does).
 *
 * Kubernetes names cannot start with `{` or `[`, so the two object forms never collide for requests.
 */
export function defaultKeyOf(item: unknown): string {
  if (typeof item === 'string') return item;
  if (typeof item === 'number' || typeof item === 'boolean' || typeof item === 'bigint') return String(item);
  if (typeof item === 'object' && item !== null) {
    const nn = namespacedNameKey(item as Record<string, unknown>);
    return nn ?? sortedJson(item);
  }
  throw new InvalidOptionError('keyOf', `the default key function cannot key an item of type ${typeof item}; pass a keyOf option`);
}

function namespacedNameKey(o: Record<string, unknown>): string | undefined {
  const name = o['name'];
  if (typeof name !== 'string' || Array.isArray(o)) return undefined;
  const ns = o['namespace'];
  if (ns !== undefined && typeof ns !== 'string') return undefined;
  for (const k in o) {
    if (k !== 'name' && k !== 'namespace' && o[k] !== undefined) return undefined;
  }
  return ns ? `${ns}/${name}` : name;
}

function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const src = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(src).sort()) out[k] = src[k];
    return out;
  });
}
