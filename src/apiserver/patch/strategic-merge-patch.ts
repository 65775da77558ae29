/**
 * Strategic merge patch for built-in kinds: a merge patch that knows, from `merge-strategy.ts` (the
 * kinds' schemas), which lists merge element by element (by a merge key) or as sets instead of being
 * replaced, and that obeys the directives client-side `kubectl apply` sends:
 *
 * - `null` deletes a field; `$patch: replace` replaces a map (or, as a list element, the list);
 *   `$patch: delete` deletes a map (or, as a list element, the element with that key);
 *   `$patch: merge` is the default;
 * - `$retainKeys: [...]` drops the object's fields that are not listed before merging;
 * - `$deleteFromPrimitiveList/<list>: [...]` removes values from a primitive set list;
 * - `$setElementOrder/<list>: [...]` fixes the order of the listed elements, keeping elements only
 *   the server has (added by someone else) at their relative positions.
 *
 * Pure: inputs are never mutated. Malformed directives are 400; a patch whose content does not
 * match its `$retainKeys` is 422, as on the real server.
 */
import type { GroupVersionKind } from '../../meta/index.js';
import { PatchError } from './patch-error.js';
import { jsonEqual } from '../../meta/index.js';
import { isJsonObject, jsonClone } from './json-value.js';
import type { JsonObject } from './json-value.js';
import { strategyFor } from './merge-strategy.js';
import type { FieldStrategy } from './merge-strategy.js';

const PATCH = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ELEMENT_ORDER = '$setElementOrder/';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';

/** Returned by `mergeMap` when the patch asked for the whole map to be deleted. */
const DELETED = Symbol('deleted');

/**
 * Applies a strategic merge patch to a copy of `doc`. Kinds without merge metadata (custom
 * resources) get the default rules only; the REST layer answers 415 for them before calling this
 * (see `supportsStrategicMerge`).
 */
export function applyStrategicMergePatch(doc: unknown, patch: unknown, gvk: GroupVersionKind): unknown {
  if (!isJsonObject(patch)) {
    throw new PatchError(400, 'error decoding patch: strategic merge patch must be a JSON object');
  }
  const merged = mergeMap(isJsonObject(doc) ? doc : undefined, patch, strategyFor(gvk) ?? {});
  return merged === DELETED ? {} : merged;
}

function mergeMap(original: JsonObject | undefined, patch: JsonObject, strategy: FieldStrategy): JsonObject | typeof DELETED {
  const directive = patch[PATCH];
  if (directive !== undefined) {
    if (directive === 'delete') return DELETED;
    if (directive === 'replace') return stripDirectives(patch);
    // The real server prints the whole map here; its keys are enough to find it, and its values may be a Secret's data.
    if (directive !== 'merge')
      throw new PatchError(
        400,
        `unknown patch type: ${typeof directive === 'string' ? directive : typeof directive} in map with keys: ${Object.keys(patch).join(', ')}`,
      );
  }
  const result: JsonObject = original ? jsonClone(original) : {};

  const retain = patch[RETAIN_KEYS];
  if (retain !== undefined) {
    if (!Array.isArray(retain) || !retain.every((k) => typeof k === 'string')) {
      throw new PatchError(400, 'invalid patch format for retainKeys');
    }
    for (const key of Object.keys(patch)) {
      if (!key.startsWith('$') && patch[key] !== null && !retain.includes(key)) {
        throw new PatchError(422, "patch content doesn't match retainKeys list");
      }
    }
    for (const key of Object.keys(result)) if (!retain.includes(key)) delete result[key];
  }

  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
    const field = key.slice(DELETE_FROM_PRIMITIVE_LIST.length);
    if (!Array.isArray(value)) throw new PatchError(400, 'invalid patch format for primitive list');
    const current = result[field];
    if (Array.isArray(current)) result[field] = current.filter((x) => !value.some((d) => jsonEqual(d, x)));
  }

  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) continue;
    if (value === null) {
      delete result[key];
      continue;
    }
    const fieldStrategy = strategy.fields?.[key] ?? strategy.values ?? {};
    const current = result[key];
    if (isJsonObject(value)) {
      const merged = mergeMap(isJsonObject(current) ? current : undefined, value, fieldStrategy);
      if (merged === DELETED) delete result[key];
      else result[key] = merged;
    } else if (Array.isArray(value)) {
      result[key] = mergeList(Array.isArray(current) ? current : [], value, fieldStrategy);
    } else {
      result[key] = value;
    }
  }

  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const field = key.slice(SET_ELEMENT_ORDER.length);
    if (!Array.isArray(order)) throw new PatchError(400, 'invalid patch format for setElementOrder list');
    const list = result[field];
    if (!Array.isArray(list)) continue;
    const identity = identityFor(strategy.fields?.[field] ?? strategy.values ?? {});
    const originalList = original?.[field];
    result[field] = normalizeOrder(list, order.map(identity), Array.isArray(originalList) ? originalList : [], identity);
  }
  return result;
}

/** Merges a patch list into `original` following the field's strategy (replace by default). */
function mergeList(original: unknown[], patch: unknown[], strategy: FieldStrategy): unknown[] {
  const { mergeKey } = strategy;
  if (mergeKey === undefined) {
    if (!strategy.mergePrimitives) return patch.map((x) => (isJsonObject(x) ? stripDirectives(x) : jsonClone(x)));
    const merged = [...original];
    for (const item of patch) if (!merged.some((x) => jsonEqual(x, item))) merged.push(jsonClone(item));
    const identity = identityFor(strategy);
    return normalizeOrder(merged, patch.map(identity), original, identity);
  }

  if (patch.some((item) => isJsonObject(item) && item[PATCH] === 'replace')) {
    return patch
      .filter((item) => !(isJsonObject(item) && item[PATCH] === 'replace'))
      .map((item) => mergeElement(undefined, item, strategy, mergeKey));
  }
  const merged = original.map((x) => jsonClone(x));
  for (const item of patch) {
    if (!isJsonObject(item) || !Object.hasOwn(item, mergeKey)) {
      throw new PatchError(400, `map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`);
    }
    const at = merged.findIndex((x) => isJsonObject(x) && jsonEqual(x[mergeKey], item[mergeKey]));
    if (item[PATCH] === 'delete') {
      for (let i = merged.length - 1; i >= 0; i--) {
        const x = merged[i];
        if (isJsonObject(x) && jsonEqual(x[mergeKey], item[mergeKey])) merged.splice(i, 1);
      }
    } else if (at >= 0) {
      merged[at] = mergeElement(merged[at] as JsonObject, item, strategy, mergeKey);
    } else {
      merged.push(mergeElement(undefined, item, strategy, mergeKey));
    }
  }
  const identity = identityFor(strategy);
  const patchOrder = patch.filter((item) => !(isJsonObject(item) && item[PATCH] === 'delete')).map(identity);
  return normalizeOrder(merged, patchOrder, original, identity);
}

function mergeElement(original: JsonObject | undefined, item: unknown, strategy: FieldStrategy, mergeKey: string): JsonObject {
  if (!isJsonObject(item)) throw new PatchError(400, `map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`);
  const merged = mergeMap(original, item, strategy.items ?? {});
  return merged === DELETED ? {} : merged;
}

/** What identifies a list element for ordering: its merge key value, or the value itself. */
function identityFor(strategy: FieldStrategy): (x: unknown) => string {
  const { mergeKey } = strategy;
  return mergeKey === undefined ? (x) => JSON.stringify(x) : (x) => JSON.stringify(isJsonObject(x) ? x[mergeKey] : x);
}

/**
 * Orders `merged`: elements named in `patchOrder` come in that order; the others (only the server
 * has them) keep their original order, and the two sequences are interleaved by their positions
 * in the original list, so an element someone else added stays where it was.
 */
function normalizeOrder(merged: unknown[], patchOrder: string[], original: unknown[], identity: (x: unknown) => string): unknown[] {
  const inPatch = new Map(patchOrder.map((id, i) => [id, i] as const));
  const serverIndex = new Map(original.map((x, i) => [identity(x), i] as const));
  const patchItems = merged.filter((x) => inPatch.has(identity(x)));
  patchItems.sort((a, b) => (inPatch.get(identity(a)) ?? 0) - (inPatch.get(identity(b)) ?? 0));
  const serverOnly = merged.filter((x) => !inPatch.has(identity(x)));
  serverOnly.sort((a, b) => (serverIndex.get(identity(a)) ?? Infinity) - (serverIndex.get(identity(b)) ?? Infinity));
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < patchItems.length || j < serverOnly.length) {
    if (i >= patchItems.length) out.push(serverOnly[j++]);
    else if (j >= serverOnly.length) out.push(patchItems[i++]);
    else {
      const li = serverIndex.get(identity(patchItems[i]));
      const ri = serverIndex.get(identity(serverOnly[j]));
      if (li !== undefined && ri !== undefined && li < ri) out.push(patchItems[i++]);
      else out.push(serverOnly[j++]);
    }
  }
  return out;
}

/** A copy of a patch fragment without directive keys (for fragments that replace what was there). */
function stripDirectives(value: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    if (key.startsWith('$')) continue;
    if (v === null) continue;
    out[key] = isJsonObject(v)
      ? stripDirectives(v)
      : Array.isArray(v)
        ? v.map((x) => (isJsonObject(x) ? stripDirectives(x) : jsonClone(x)))
        : v;
  }
  return out;
}
