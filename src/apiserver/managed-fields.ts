/**
 * `metadata.managedFields` bookkeeping for non-apply writes: each write adds (or extends) one
 * `Update` entry for its manager, listing in FieldsV1 form the fields it changed. Lists of objects
 * with a `name` are keyed `k:{"name":…}`; other lists are atomic. This records ownership faithfully
 * enough for clients that read it; it does not enforce apply conflicts between managers.
 * Invariant: entries other than the writer's are left untouched.
 */
import type { KubeObject } from '../meta/index.js';
import { jsonEqual } from './registry/strategy.js';

type FieldSet = Record<string, unknown>;

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: FieldSet;
  subresource?: string;
}

const META_TRACKED = ['labels', 'annotations', 'finalizers', 'ownerReferences'];
const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function diff(n: unknown, o: unknown): FieldSet | null {
  if (isPlain(n)) {
    const out: FieldSet = {};
    const old = isPlain(o) ? o : {};
    for (const [k, v] of Object.entries(n)) {
      if (v === undefined) continue;
      const d = diff(v, old[k]);
      if (d) out[`f:${k}`] = d;
    }
    return Object.keys(out).length > 0 || !isPlain(o) ? out : null;
  }
  if (Array.isArray(n) && n.length > 0 && n.every((e) => isPlain(e) && typeof e.name === 'string')) {
    const old = Array.isArray(o) ? (o as Record<string, unknown>[]) : [];
    const out: FieldSet = {};
    for (const e of n as Record<string, unknown>[]) {
      const d = diff(e, old.find((x) => isPlain(x) && x.name === e.name));
      if (d) out[`k:${JSON.stringify({ name: e.name })}`] = { '.': {}, ...d };
    }
    return Object.keys(out).length > 0 ? out : null;
  }
  return jsonEqual(n, o) ? null : {};
}

function union(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isPlain(out[k]) && isPlain(v) ? union(out[k] as FieldSet, v) : v;
  return out;
}

/** The fields `obj` sets differently from `old` (everything, for a create), in FieldsV1 form. */
export function changedFields(obj: KubeObject, old: KubeObject | undefined, subresource: string | undefined): FieldSet | null {
  const pick = (o: KubeObject | undefined): Record<string, unknown> => {
    if (!o) return {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      if (k === 'apiVersion' || k === 'kind' || k === 'metadata') continue;
      if (subresource === 'status' ? k === 'status' : k !== 'status') out[k] = v;
    }
    const meta: Record<string, unknown> = {};
    for (const k of META_TRACKED) if (o.metadata[k as keyof typeof o.metadata] !== undefined) meta[k] = o.metadata[k as keyof typeof o.metadata];
    if (Object.keys(meta).length > 0) out.metadata = meta;
    return out;
  };
  const d = diff(pick(obj), pick(old));
  return d && Object.keys(d).length > 0 ? d : null;
}

/** Records a write by `manager` on `obj.metadata.managedFields` (mutates `obj`). */
export function recordManagedFields(
  obj: KubeObject,
  old: KubeObject | undefined,
  opts: { manager: string; operation: 'Apply' | 'Update'; apiVersion: string; time: string; subresource?: string },
): void {
  const changed = changedFields(obj, old, opts.subresource);
  const entries = ((obj.metadata.managedFields ?? []) as ManagedFieldsEntry[]).filter((e) => e && e.manager !== undefined);
  if (!changed) {
    if (entries.length > 0) obj.metadata.managedFields = entries;
    else delete obj.metadata.managedFields;
    return;
  }
  const same = (e: ManagedFieldsEntry): boolean =>
    e.manager === opts.manager && e.operation === opts.operation && (e.subresource ?? '') === (opts.subresource ?? '');
  const prev = entries.find(same);
  const entry: ManagedFieldsEntry = {
    manager: opts.manager, operation: opts.operation, apiVersion: opts.apiVersion, time: opts.time, fieldsType: 'FieldsV1',
    fieldsV1: prev && opts.operation === 'Update' ? union(prev.fieldsV1, changed) : changed,
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  };
  obj.metadata.managedFields = [...entries.filter((e) => !same(e)), entry];
}
