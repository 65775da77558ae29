/**
 * JSON Patch (RFC 6902): an ordered list of `add`/`remove`/`replace`/`move`/`copy`/`test`
 * operations addressed by JSON pointers (RFC 6901). The patch is atomic: operations run on a copy
 * and the input document is never touched, so a failing operation (a `test` that does not hold,
 * a path that does not exist) leaves nothing half-applied. Messages follow the real server's
 * (`replace operation does not apply: doc is missing key: /spec/x: missing value`), and errors are
 * 422 because the patch decoded but does not apply; a patch that is not a list of operations is 400.
 */
import { PatchError } from './patch-error.js';
import { goJsonKind } from '../go-json-kind.js';
import { jsonEqual } from '../../meta/index.js';
import { isJsonObject, jsonClone } from './json-value.js';
import type { JsonObject } from './json-value.js';

/** One RFC 6902 operation as decoded from the request body. */
export interface JsonPatchOperation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

/** The real server refuses patches with more operations than this (413 in the handler). */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

/** Parses a JSON pointer into its unescaped reference tokens (`~1` → `/`, then `~0` → `~`). */
export function parseJsonPointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) {
    throw new PatchError(422, `JSON pointer must be empty or start with a "/": ${JSON.stringify(pointer)}`);
  }
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Applies `ops` to a copy of `doc` and returns the result. Throws `PatchError` (422) when an
 * operation does not apply, (400) when `ops` is not a list of operations.
 */
export function applyJsonPatch(doc: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) {
    throw new PatchError(400, `error decoding patch: json: cannot unmarshal ${goJsonKind(ops)} into Go value of type jsonpatch.Patch`);
  }
  // The document lives under a holder so that the empty pointer ("" = the whole document) is just
  // one more parent/key pair.
  const holder: JsonObject = { root: jsonClone(doc) };
  for (const raw of ops) {
    if (!isJsonObject(raw)) {
      throw new PatchError(
        400,
        `error decoding patch: json: cannot unmarshal ${goJsonKind(raw)} into Go value of type jsonpatch.Operation`,
      );
    }
    applyOne(holder, raw);
  }
  return holder['root'];
}

function applyOne(holder: JsonObject, op: JsonObject): void {
  const kind = op['op'];
  const path = stringField(op, 'path', kind);
  switch (kind) {
    case 'add':
      add(holder, path, jsonClone(requireValue(op, kind)), kind);
      return;
    case 'remove':
      remove(holder, path, kind);
      return;
    case 'replace': {
      const value = jsonClone(requireValue(op, kind));
      const { parent, key } = resolveParent(holder, path, kind);
      if (Array.isArray(parent)) {
        const i = arrayIndex(parent, key, false);
        parent[i] = value;
      } else {
        if (!Object.hasOwn(parent, key)) {
          throw new PatchError(422, `replace operation does not apply: doc is missing key: ${path}: missing value`);
        }
        parent[key] = value;
      }
      return;
    }
    case 'move': {
      const from = stringField(op, 'from', kind);
      if (path !== from && path.startsWith(from + '/')) {
        throw new PatchError(422, `move operation does not apply: ${from} is a prefix of ${path}`);
      }
      const value = remove(holder, from, kind, 'from path');
      add(holder, path, value, kind);
      return;
    }
    case 'copy': {
      const from = stringField(op, 'from', kind);
      add(holder, path, jsonClone(get(holder, from, kind, 'from path')), kind);
      return;
    }
    case 'test': {
      const expected = op['value'] === undefined ? null : op['value'];
      let actual: unknown;
      try {
        actual = get(holder, path, kind, 'path');
      } catch {
        throw new PatchError(422, `testing value ${path} failed: test failed`);
      }
      if (!jsonEqual(actual, expected)) throw new PatchError(422, `testing value ${path} failed: test failed`);
      return;
    }
    default:
      throw new PatchError(422, `Unexpected kind: ${String(kind)}`);
  }
}

function stringField(op: JsonObject, field: 'path' | 'from', kind: unknown): string {
  const v = op[field];
  if (typeof v !== 'string') {
    throw new PatchError(422, `${String(kind)} operation does not apply: operation is missing ${field === 'path' ? 'path' : 'from'} value`);
  }
  return v;
}

function requireValue(op: JsonObject, kind: string): unknown {
  if (!Object.hasOwn(op, 'value')) throw new PatchError(422, `${kind} operation does not apply: operation is missing value`);
  return op['value'];
}

type Container = JsonObject | unknown[];

/** Walks to the container holding the last token of `path`; the container must exist. */
function resolveParent(holder: JsonObject, path: string, kind: string, what = 'path'): { parent: Container; key: string } {
  const tokens = ['root', ...parseJsonPointer(path)];
  let parent: Container = holder;
  for (const token of tokens.slice(0, -1)) {
    let next: unknown;
    if (Array.isArray(parent)) next = parent[arrayIndex(parent, token, false)];
    else next = Object.hasOwn(parent, token) ? parent[token] : undefined;
    if (!Array.isArray(next) && !isJsonObject(next)) {
      throw new PatchError(422, `${kind} operation does not apply: doc is missing ${what}: ${JSON.stringify(path)}: missing value`);
    }
    parent = next;
  }
  return { parent, key: tokens[tokens.length - 1] as string };
}

function get(holder: JsonObject, path: string, kind: string, what: string): unknown {
  const { parent, key } = resolveParent(holder, path, kind, what);
  if (Array.isArray(parent)) return parent[arrayIndex(parent, key, false)];
  if (!Object.hasOwn(parent, key)) {
    throw new PatchError(422, `${kind} operation does not apply: doc is missing ${what}: ${path}: missing value`);
  }
  return parent[key];
}

function add(holder: JsonObject, path: string, value: unknown, kind: string): void {
  const { parent, key } = resolveParent(holder, path, kind);
  if (Array.isArray(parent)) parent.splice(key === '-' ? parent.length : arrayIndex(parent, key, true), 0, value);
  else parent[key] = value;
}

function remove(holder: JsonObject, path: string, kind: string, what = 'path'): unknown {
  if (path === '') throw new PatchError(422, `${kind} operation does not apply: cannot remove the whole document`);
  const { parent, key } = resolveParent(holder, path, kind, what);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, key, false), 1)[0];
  if (!Object.hasOwn(parent, key)) {
    throw new PatchError(422, `${kind} operation does not apply: doc is missing ${what}: ${JSON.stringify(path)}: missing value`);
  }
  const value = parent[key];
  delete parent[key];
  return value;
}

/** An array index token: decimal digits without leading zeros, in range (`length` allowed for add). */
function arrayIndex(array: unknown[], token: string, forInsert: boolean): number {
  const i = /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : NaN;
  const max = forInsert ? array.length : array.length - 1;
  if (!Number.isSafeInteger(i) || i > max) {
    throw new PatchError(422, `Unable to access invalid index: ${token}: invalid index referenced`);
  }
  return i;
}
