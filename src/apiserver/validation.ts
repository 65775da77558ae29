/**
 * Object-metadata validation shared by every type: DNS-1123/1035 names, label and annotation keys
 * and values, `generateName`, finalizers and owner references, with apimachinery's exact messages
 * (`util/validation/validation.go`, `api/validation/objectmeta.go`). Pure functions returning
 * `FieldCause`s; the caller turns a non-empty list into a 422 `Invalid`.
 */
import type { KubeObject } from '../meta/index.js';
import { fieldCause, type FieldCause } from './status.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED_MSG = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/** How a kind's object names are checked. */
export type NameRule = 'subdomain' | 'label' | 'dns1035';

export function dns1123SubdomainError(v: string): string | undefined {
  if (v.length > 253) return 'must be no more than 253 characters';
  return DNS1123_SUBDOMAIN.test(v) ? undefined : SUBDOMAIN_MSG;
}

export function dns1123LabelError(v: string): string | undefined {
  if (v.length > 63) return 'must be no more than 63 characters';
  return DNS1123_LABEL.test(v) ? undefined : LABEL_MSG;
}

export function dns1035LabelError(v: string): string | undefined {
  if (v.length > 63) return 'must be no more than 63 characters';
  return DNS1035_LABEL.test(v) ? undefined : DNS1035_MSG;
}

export function nameError(rule: NameRule, v: string): string | undefined {
  switch (rule) {
    case 'subdomain':
      return dns1123SubdomainError(v);
    case 'label':
      return dns1123LabelError(v);
    case 'dns1035':
      return dns1035LabelError(v);
  }
}

/** A label or annotation key: optional DNS-subdomain prefix, `/`, and a name part of at most 63 chars. */
export function qualifiedNameError(key: string): string | undefined {
  const parts = key.split('/');
  let name = key;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (!prefix) return 'prefix part must be non-empty';
    const e = dns1123SubdomainError(prefix);
    if (e) return `prefix part ${e}`;
  } else if (parts.length > 2) {
    return `a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`;
  }
  if (!name) return 'name part must be non-empty';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  return QUALIFIED_NAME.test(name) ? undefined : QUALIFIED_MSG;
}

export function labelValueError(v: string): string | undefined {
  if (v.length > 63) return 'must be no more than 63 characters';
  return LABEL_VALUE.test(v) ? undefined : VALUE_MSG;
}

const TOTAL_ANNOTATION_SIZE = 256 * 1024;

/** Checks a metadata map's keys (and, for labels, values). */
function validateMap(m: unknown, field: string, isLabels: boolean): FieldCause[] {
  if (m === undefined || m === null) return [];
  if (typeof m !== 'object' || Array.isArray(m)) return [fieldCause.invalid(field, m, 'must be a map of strings')];
  const out: FieldCause[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(m as Record<string, unknown>)) {
    const ke = qualifiedNameError(k);
    if (ke) out.push(fieldCause.invalid(field, k, ke));
    if (typeof v !== 'string') {
      out.push(fieldCause.invalid(`${field}.${k}`, v, 'must be a string'));
      continue;
    }
    size += k.length + v.length;
    if (isLabels) {
      const ve = labelValueError(v);
      if (ve) out.push(fieldCause.invalid(`${field}`, v, ve));
    }
  }
  if (!isLabels && size > TOTAL_ANNOTATION_SIZE) out.push(fieldCause.tooLong(field, TOTAL_ANNOTATION_SIZE));
  return out;
}

/** Validates the parts of ObjectMeta every kind shares. `name` has already been resolved from generateName. */
export function validateObjectMeta(obj: KubeObject, { nameRule, namespaced }: { nameRule: NameRule; namespaced: boolean }): FieldCause[] {
  const m = obj.metadata;
  const out: FieldCause[] = [];
  if (!m.name) {
    out.push(fieldCause.required('metadata.name', 'name or generateName is required'));
  } else {
    const e = nameError(nameRule, m.name);
    if (e) out.push(fieldCause.invalid('metadata.name', m.name, e));
  }
  if (m.generateName) {
    // A prefix may end in '-': check it as if that were a letter (apimachinery's maskTrailingDash).
    const masked = m.generateName.endsWith('-') ? `${m.generateName.slice(0, -1)}a` : m.generateName;
    const e = nameError(nameRule, masked);
    if (e) out.push(fieldCause.invalid('metadata.generateName', m.generateName, e));
  }
  if (namespaced && !m.namespace) out.push(fieldCause.required('metadata.namespace', ''));
  out.push(...validateMap(m.labels, 'metadata.labels', true));
  out.push(...validateMap(m.annotations, 'metadata.annotations', false));
  if (m.finalizers !== undefined) {
    if (!Array.isArray(m.finalizers)) out.push(fieldCause.invalid('metadata.finalizers', m.finalizers, 'must be a list of strings'));
    else {
      const seen = new Set<string>();
      m.finalizers.forEach((f, i) => {
        const e = typeof f === 'string' ? qualifiedNameError(f) : 'must be a string';
        if (e) out.push(fieldCause.invalid(`metadata.finalizers[${i}]`, f, e));
        if (seen.has(f)) out.push(fieldCause.duplicate(`metadata.finalizers[${i}]`, f));
        seen.add(f);
      });
    }
  }
  if (Array.isArray(m.ownerReferences)) {
    let controllers = 0;
    m.ownerReferences.forEach((r, i) => {
      const f = `metadata.ownerReferences[${i}]`;
      if (!r.apiVersion) out.push(fieldCause.invalid(`${f}.apiVersion`, r.apiVersion ?? '', 'version must not be empty'));
      if (!r.kind) out.push(fieldCause.invalid(`${f}.kind`, r.kind ?? '', 'kind must not be empty'));
      if (!r.name) out.push(fieldCause.invalid(`${f}.name`, r.name ?? '', 'name must not be empty'));
      if (!r.uid) out.push(fieldCause.invalid(`${f}.uid`, r.uid ?? '', 'uid must not be empty'));
      if (r.controller) controllers++;
    });
    if (controllers > 1) {
      out.push(fieldCause.invalid('metadata.ownerReferences', m.ownerReferences, 'Only one reference can have Controller set to true'));
    }
  }
  return out;
}
