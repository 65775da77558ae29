/**
 * The one nesting limit of the server: every request body (JSON, YAML, protobuf, patch) and every
 * patched object is refused when it nests deeper than `MAX_NESTING_DEPTH` containers, so no
 * recursive step after decoding (validation, pruning, defaulting, patching, managed fields, tables,
 * the YAML composer itself) can run out of stack. Both measures here are iterative.
 *
 * Why 256: the deepest recursion per level is the `yaml` package's composer, which runs out of
 * Node's default stack at about 750 levels; the other recursive paths (server-side apply, strategic
 * merge patch and `structuredClone` about 1 750, deep equality 2 500, the managed-fields diff 6 750)
 * go further. 256 keeps each at a third of its stack or less, and is far beyond any real object (a
 * CRD's schema, the deepest thing a cluster usually stores, rarely passes 40). kube-apiserver's JSON
 * decoder goes to 10 000 levels; bodies between 257 and 10 000 levels are the difference.
 */
import { Parser } from 'yaml';
import { badRequest, invalid, type ApiStatusError } from './ground/index.js';

export const MAX_NESTING_DEPTH = 256;

type Pending = [value: unknown, depth: number];

/**
 * True when `value` has a container nested deeper than `limit` (the value itself is level 1).
 * `metadata.managedFields` entries are measured from their `fieldsV1`, which mirrors the object
 * (and ends in `{}` where the object ends in a value), so an object at the limit can be read back
 * and written again with its managed fields. A cycle counts as too deep.
 */
export function nestsDeeperThan(value: unknown, limit = MAX_NESTING_DEPTH): boolean {
  const stack: Pending[] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top;
    if (v === null || typeof v !== 'object') continue;
    if (depth > limit) return true;
    for (const [k, child] of Object.entries(v)) {
      if (depth === 2 && k === 'managedFields' && v === (value as { metadata?: unknown }).metadata && Array.isArray(child)) {
        for (const entry of child) stack.push(...Object.values(entry ?? {}).map((x): Pending => [x, 0]));
      } else stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The nesting depth of a YAML text's collections, read from its syntax tree without composing it. */
export function yamlNestingDepth(text: string): number {
  let max = 0;
  for (const token of new Parser().parse(text)) {
    const stack: Pending[] = [[token, 0]];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      const [t, depth] = top as [{ type?: string; value?: unknown; items?: { key?: unknown; value?: unknown }[] } | undefined, number];
      if (t?.type === 'document') stack.push([t.value, depth]);
      else if (t?.type === 'block-map' || t?.type === 'block-seq' || t?.type === 'flow-collection') {
        max = Math.max(max, depth + 1);
        for (const item of t.items ?? []) stack.push([item.key, depth + 1], [item.value, depth + 1]);
      }
    }
  }
  return max;
}

/** The 400 for a request body over the limit; `what` names the body (`object`, `patch`). */
export const bodyTooDeep = (what: string): ApiStatusError =>
  badRequest(`the body of the request (${what}) nests deeper than the limit of ${MAX_NESTING_DEPTH} levels`);

/** The 422 for an object that a patch would nest deeper than the limit. */
export const patchedTooDeep = (kind: string, group: string, name: string): ApiStatusError =>
  invalid(kind, group, name, [
    { reason: 'FieldValueInvalid', field: '', message: `the patched object nests deeper than the limit of ${MAX_NESTING_DEPTH} levels` },
  ]);
