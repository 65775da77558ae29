/**
 * JSON Merge Patch (RFC 7386): the patch mirrors the document; objects merge recursively, `null`
 * deletes a member, anything else (including arrays) replaces. Pure: the inputs are not mutated.
 */
import { isJsonObject, jsonClone } from './json-value.js';
import type { JsonObject } from './json-value.js';

export function applyMergePatch(doc: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return jsonClone(patch);
  const result: JsonObject = isJsonObject(doc) ? { ...doc } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  // Untouched members are shared with `doc` above; copy them so the result owns all of its values.
  for (const key of Object.keys(result)) {
    if (!Object.hasOwn(patch, key)) result[key] = jsonClone(result[key]);
  }
  return result;
}
