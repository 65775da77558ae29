/**
 * Decoding request bodies: JSON, YAML when the Content-Type says so, or protobuf for the few kinds
 * typed clients send that way, into a plain object. Any failure is a 400 (415 for a format not
 * understood) with a message that says what was wrong, never an exception that escapes. Every body
 * is held to the nesting limit (`nesting.ts`); YAML is measured before it is composed, because the
 * `yaml` composer recurses per level and carries on after running out of stack (see below).
 */
import { parse as parseYaml } from 'yaml';
import { goJsonKind } from '../go-json-kind.js';
import { bodyTooDeep, MAX_NESTING_DEPTH, nestsDeeperThan, yamlNestingDepth } from '../nesting.js';
import type { KubeObject } from '../../meta/index.js';
import type { ProtobufBodies } from '../protobuf/index.js';
import { headerOf, type ApiRequest } from './request.js';
import { badRequest, unsupportedMediaType } from '../ground/index.js';

export function bodyText(req: ApiRequest): string {
  const b = req.body;
  if (b === undefined) return '';
  return typeof b === 'string' ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
}

export function mediaType(req: ApiRequest): string {
  return (headerOf(req, 'content-type') ?? 'application/json').split(';')[0]!.trim().toLowerCase();
}

/** Aliases one YAML document may expand (the `yaml` package's measure of alias expansion: billion laughs). */
export const MAX_YAML_ALIAS_COUNT = 100;

/**
 * Parses JSON or YAML text held to the nesting limit; `what` names the thing in the error message.
 * YAML deeper than the limit never reaches the composer: it catches the stack overflow its recursion
 * causes and goes on composing with no stack left, and V8 treats a regular expression compiled there
 * as out of memory and kills the process (`RegExpCompiler Allocation failed`).
 */
export function parseDocument(text: string, yaml: boolean, what: string): unknown {
  if (yaml && yamlNestingDepth(text) > MAX_NESTING_DEPTH) throw bodyTooDeep(what);
  let value: unknown;
  try {
    // `uniqueKeys` compares every key of a map with every other (quadratic: a 3 MB map of short keys
    // takes minutes); without it a repeated key keeps its last value, as JSON.parse does for JSON.
    value = yaml ? parseYaml(text, { maxAliasCount: MAX_YAML_ALIAS_COUNT, uniqueKeys: false }) : JSON.parse(text);
  } catch (e) {
    throw badRequest(`the body of the request was not valid ${yaml ? 'YAML' : 'JSON'} (${what}): ${(e as Error).message}`);
  }
  // JSON.parse does not recurse; YAML aliases can nest a shallow text deeper (or into a cycle).
  if (nestsDeeperThan(value)) throw bodyTooDeep(what);
  return value;
}

/**
 * The request body as a Kubernetes object: JSON or YAML per Content-Type, or protobuf of a kind the
 * registry's records declare (read from `registry` only for a protobuf body).
 */
export function decodeObject(req: ApiRequest, registry: { readonly protobuf: ProtobufBodies }): KubeObject {
  const t = mediaType(req);
  if (t === 'application/vnd.kubernetes.protobuf') {
    const bytes = typeof req.body === 'string' ? Buffer.from(req.body, 'latin1') : (req.body ?? new Uint8Array());
    const obj = registry.protobuf.decodeObject(bytes);
    if (nestsDeeperThan(obj)) throw bodyTooDeep('object');
    checkMetadataShape(obj);
    return obj;
  }
  const text = bodyText(req);
  if (text.trim() === '') throw badRequest('the body of the request was empty: expected a Kubernetes object');
  const yaml = t === 'application/yaml' || t === 'application/x-yaml' || t === 'text/yaml';
  if (!yaml && t !== 'application/json' && t !== '*/*') {
    throw unsupportedMediaType(
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`,
    );
  }
  const v = parseDocument(text, yaml, 'object');
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw badRequest('the body of the request must be a JSON object');
  const obj = v as KubeObject;
  checkMetadataShape(obj);
  return obj;
}

const STRING_META = ['name', 'generateName', 'namespace', 'resourceVersion', 'uid', 'creationTimestamp', 'deletionTimestamp'];
const MAP_META = ['labels', 'annotations'];
const LIST_META = ['finalizers', 'ownerReferences', 'managedFields'];

const decodeError = (field: string, want: string, got: unknown): never => {
  throw badRequest(
    `unable to decode the object: json: cannot unmarshal ${goJsonKind(got)} into Go struct field ObjectMeta.metadata.${field} of type ${want}`,
  );
};

/** ObjectMeta fields must have their Go types, as the real decoder insists (400 otherwise). */
export function checkMetadataShape(obj: KubeObject): void {
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  else if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata))
    throw badRequest('unable to decode the object: metadata must be an object');
  const m = obj.metadata as Record<string, unknown>;
  for (const f of STRING_META) if (m[f] !== undefined && m[f] !== null && typeof m[f] !== 'string') decodeError(f, 'string', m[f]);
  for (const f of MAP_META) {
    const v = m[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'object' || Array.isArray(v)) decodeError(f, 'map[string]string', v);
    for (const x of Object.values(v as object)) if (typeof x !== 'string') decodeError(f, 'map[string]string', x);
  }
  for (const f of LIST_META) {
    const v = m[f];
    if (v === undefined || v === null) continue;
    if (!Array.isArray(v)) return decodeError(f, '[]', v);
    if (f === 'finalizers' && v.some((x: unknown) => typeof x !== 'string')) decodeError(f, '[]string', v);
    if (f !== 'finalizers' && v.some((x: unknown) => typeof x !== 'object' || x === null || Array.isArray(x)))
      decodeError(f, '[]object', v);
  }
  for (const f of ['apiVersion', 'kind']) {
    const v = (obj as Record<string, unknown>)[f];
    if (v !== undefined && typeof v !== 'string') throw badRequest(`unable to decode the object: ${f} must be a string`);
  }
}
