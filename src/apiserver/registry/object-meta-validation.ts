/**
 * Object-metadata validation shared by every type: DNS-1123/1035 names, label and annotation keys
 * and values, `generateName`, finalizers and owner references, as apimachinery's `ObjectMeta`
 * validation does it. The name and label rules and their wording live in meta, shared with selector
 * parsing; this file turns each problem into one `FieldCause`, as the real server does, and the
 * caller turns a non-empty list into a 422 `Invalid`.
 */
import {
  dns1035LabelErrors,
  dns1123LabelErrors,
  dns1123SubdomainErrors,
  labelValueErrors,
  qualifiedNameErrors,
  type KubeObject,
} from '../../meta/index.js';
import { fieldCause, type FieldCause } from '../ground/index.js';

/** How a kind's object names are checked (`pathSegment`: anything usable as one URL path segment). */
export type NameRule = 'subdomain' | 'label' | 'dns1035' | 'pathSegment';

/** apimachinery's path-segment rule, the least any name must meet. */
function pathSegmentErrors(v: string): string[] {
  if (v === '.' || v === '..') return [`may not be '${v}'`];
  return ['/', '%'].filter((c) => v.includes(c)).map((c) => `may not contain '${c}'`);
}

const NAME_RULES: Record<NameRule, (v: string) => string[]> = {
  subdomain: dns1123SubdomainErrors,
  label: dns1123LabelErrors,
  dns1035: dns1035LabelErrors,
  pathSegment: pathSegmentErrors,
};

/** Each problem with `v` as a name under `rule`; the server reports each as its own cause. */
export const nameErrors = (rule: NameRule, v: string): string[] => NAME_RULES[rule](v);

const TOTAL_ANNOTATION_SIZE = 256 * 1024;

/** Checks a metadata map's keys (and, for labels, values). */
function validateMap(m: unknown, field: string, isLabels: boolean): FieldCause[] {
  if (m === undefined || m === null) return [];
  if (typeof m !== 'object' || Array.isArray(m)) return [fieldCause.invalid(field, m, 'must be a map of strings')];
  const out: FieldCause[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(m as Record<string, unknown>)) {
    for (const e of qualifiedNameErrors(k)) out.push(fieldCause.invalid(field, k, e));
    if (typeof v !== 'string') {
      out.push(fieldCause.invalid(`${field}.${k}`, v, 'must be a string'));
      continue;
    }
    size += k.length + v.length;
    if (isLabels) {
      for (const e of labelValueErrors(v)) out.push(fieldCause.invalid(field, v, e));
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
    for (const e of nameErrors(nameRule, m.name)) out.push(fieldCause.invalid('metadata.name', m.name, e));
  }
  if (m.generateName) {
    // A prefix may end in '-': check it as if that were a letter (apimachinery's maskTrailingDash).
    const masked = m.generateName.endsWith('-') ? `${m.generateName.slice(0, -1)}a` : m.generateName;
    for (const e of nameErrors(nameRule, masked)) out.push(fieldCause.invalid('metadata.generateName', m.generateName, e));
  }
  if (namespaced && !m.namespace) out.push(fieldCause.required('metadata.namespace', ''));
  out.push(...validateMap(m.labels, 'metadata.labels', true));
  out.push(...validateMap(m.annotations, 'metadata.annotations', false));
  if (m.finalizers !== undefined) {
    if (!Array.isArray(m.finalizers)) out.push(fieldCause.invalid('metadata.finalizers', m.finalizers, 'must be a list of strings'));
    else {
      const seen = new Set<string>();
      m.finalizers.forEach((f, i) => {
        const errs = typeof f === 'string' ? qualifiedNameErrors(f) : ['must be a string'];
        for (const e of errs) out.push(fieldCause.invalid(`metadata.finalizers[${i}]`, f, e));
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
