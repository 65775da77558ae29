/**
 * The checks apiextensions-apiserver makes of every object a schema marks
 * `x-kubernetes-embedded-resource: true` (and of the resource itself, when asked to treat it as one)
 * (https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/apiserver/schema/objectmeta/validation.go):
 * `apiVersion` and `kind` are present, non-empty strings (a group/version, a DNS-1035 label in any
 * case); `metadata`, when present, decodes as ObjectMeta and is valid as one (names that fit a path
 * segment, DNS-1123 namespace, qualified label and annotation keys, label values). Paths are relative
 * to the value checked.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { dns1035LabelErrors, dns1123LabelErrors, labelValueErrors, qualifiedNameErrors } from '../../meta/index.js';
import { extensionsOf } from './extensions.js';
import { fieldCause, childPath, indexPath } from './field-cause.js';
import type { FieldCause } from './field-cause.js';
import { isJsonObject } from './json-object.js';

export interface EmbeddedResourceOptions {
  /** Check `value` itself as a resource too. */
  isResourceRoot: boolean;
}

/** The problems of the embedded objects in `value` (a value of `schema`). */
export function embeddedResourceErrors(value: unknown, schema: JSONSchemaProps, options: EmbeddedResourceOptions): FieldCause[] {
  const causes: FieldCause[] = [];
  walk(value, schema, options.isResourceRoot, '', causes);
  return causes;
}

const asSchema = (v: unknown): JSONSchemaProps | undefined => (isJsonObject(v) ? (v as JSONSchemaProps) : undefined);

function walk(x: unknown, s: JSONSchemaProps | undefined, isResource: boolean, path: string, causes: FieldCause[]): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = asSchema(s.items);
    x.forEach((item, i) => walk(item, items, false, indexPath(path, i), causes));
    return;
  }
  if (!isJsonObject(x)) return;
  if (isResource || extensionsOf(s)['x-kubernetes-embedded-resource'] === true) checkResource(x, path, causes);
  for (const [key, v] of Object.entries(x)) {
    const declared = s.properties?.[key];
    if (declared !== undefined) walk(v, declared, false, childPath(path, key), causes);
    else if (s.additionalProperties !== undefined) walk(v, asSchema(s.additionalProperties), false, `${path}[${key}]`, causes);
  }
}

function checkResource(x: Record<string, unknown>, path: string, causes: FieldCause[]): void {
  if (!Object.hasOwn(x, 'apiVersion')) causes.push(fieldCause.required(childPath(path, 'apiVersion')));
  if (!Object.hasOwn(x, 'kind')) causes.push(fieldCause.required(childPath(path, 'kind')));
  for (const [key, v] of Object.entries(x)) {
    const at = childPath(path, key);
    if (key === 'apiVersion') {
      if (typeof v !== 'string') causes.push(fieldCause.invalid(at, v, 'must be a string'));
      else if (v === '') causes.push(fieldCause.invalid(at, v, 'must not be empty'));
      else if (v.split('/').length > 2) causes.push(fieldCause.invalid(at, v, `unexpected GroupVersion string: ${v}`));
    } else if (key === 'kind') {
      if (typeof v !== 'string') causes.push(fieldCause.invalid(at, v, 'must be a string'));
      else if (v === '') causes.push(fieldCause.invalid(at, v, 'must not be empty'));
      else {
        const errors = dns1035LabelErrors(v.toLowerCase());
        if (errors.length > 0)
          causes.push(fieldCause.invalid(at, v, `may have mixed case, but should otherwise match: ${errors.join(',')}`));
      }
    } else if (key === 'metadata') {
      causes.push(...metadataErrors(v, at));
    }
  }
}

/** How Go's JSON decoding of ObjectMeta words a value of the wrong type. */
const STRING_FIELDS = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'selfLink'];
const jsonKind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v);

function decodeError(meta: unknown): string | undefined {
  if (meta === null) return undefined;
  if (!isJsonObject(meta)) return `json: cannot unmarshal ${jsonKind(meta)} into Go value of type v1.ObjectMeta`;
  for (const f of STRING_FIELDS) {
    const v = meta[f];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      return `json: cannot unmarshal ${jsonKind(v)} into Go struct field ObjectMeta.${f} of type string`;
    }
  }
  for (const f of ['labels', 'annotations']) {
    const v = meta[f];
    if (v === undefined || v === null) continue;
    if (!isJsonObject(v)) return `json: cannot unmarshal ${jsonKind(v)} into Go struct field ObjectMeta.${f} of type map[string]string`;
    const bad = Object.values(v).find((e) => e !== null && typeof e !== 'string');
    if (bad !== undefined) return `json: cannot unmarshal ${jsonKind(bad)} into Go struct field ObjectMeta.${f} of type string`;
  }
  const finalizers = meta['finalizers'];
  if (finalizers !== undefined && finalizers !== null && !Array.isArray(finalizers)) {
    return `json: cannot unmarshal ${jsonKind(finalizers)} into Go struct field ObjectMeta.finalizers of type []string`;
  }
  return undefined;
}

const pathSegmentErrors = (v: string): string[] =>
  v === '.' || v === '..' ? [`may not be '${v}'`] : ['/', '%'].filter((c) => v.includes(c)).map((c) => `may not contain '${c}'`);

function metadataErrors(meta: unknown, path: string): FieldCause[] {
  const decode = decodeError(meta);
  if (decode !== undefined) return [fieldCause.invalid(path, meta, decode)];
  if (!isJsonObject(meta)) return [];
  const out: FieldCause[] = [];
  const name = typeof meta['name'] === 'string' ? meta['name'] : '';
  for (const e of pathSegmentErrors(name)) out.push(fieldCause.invalid(childPath(path, 'name'), name, e));
  const generateName = meta['generateName'];
  if (typeof generateName === 'string' && generateName !== '') {
    for (const e of pathSegmentErrors(generateName)) out.push(fieldCause.invalid(childPath(path, 'generateName'), generateName, e));
  }
  const namespace = meta['namespace'];
  if (typeof namespace === 'string' && namespace !== '') {
    for (const e of dns1123LabelErrors(namespace)) out.push(fieldCause.invalid(childPath(path, 'namespace'), namespace, e));
  }
  for (const field of ['labels', 'annotations']) {
    const entries = Object.entries(isJsonObject(meta[field]) ? (meta[field] as Record<string, unknown>) : {});
    const at = childPath(path, field);
    for (const [k, v] of entries) {
      for (const e of qualifiedNameErrors(k)) out.push(fieldCause.invalid(at, k, e));
      if (field === 'labels' && typeof v === 'string') for (const e of labelValueErrors(v)) out.push(fieldCause.invalid(at, v, e));
    }
  }
  return out;
}
