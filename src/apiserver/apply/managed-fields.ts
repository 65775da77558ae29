/**
 * `metadata.managedFields` bookkeeping for non-apply writes: each write adds (or extends) one
 * `Update` entry for its manager, listing in FieldsV1 form the fields it changed, and takes those
 * fields away from every other manager (an update never conflicts; it takes ownership). Keyed lists
 * give one `k:{…}` entry per element and sets one `v:…` per value (`field-shape.ts` says which list
 * is which); other lists, and atomic maps, are one field. Field sets are plain nested objects, which server-side apply
 * (`server-side-apply.ts`) works on too.
 * Invariant: an entry that no longer owns any field is dropped.
 */
import { jsonEqual, type KubeObject } from '../../meta/index.js';
import { elementKey, type Shape } from './field-shape.js';

export type FieldSet = Record<string, unknown>;

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
export const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function diff(n: unknown, o: unknown, shape: Shape): FieldSet | null {
  if (isPlain(n) && !shape.atomic()) {
    const out: FieldSet = {};
    const old = isPlain(o) ? o : {};
    for (const [k, v] of Object.entries(n)) {
      if (v === undefined) continue;
      const d = diff(v, old[k], shape.field(k));
      if (d) out[`f:${k}`] = d;
    }
    return Object.keys(out).length > 0 || !isPlain(o) ? out : null;
  }
  const list = shape.list();
  if (Array.isArray(n) && n.length > 0 && list.kind !== 'atomic') {
    const keys = n.map((e) => elementKey(list, e));
    if (keys.every((k) => k !== undefined) && new Set(keys).size === keys.length) {
      const old = new Map((Array.isArray(o) ? o : []).map((e) => [elementKey(list, e), e] as const));
      const out: FieldSet = {};
      n.forEach((e, i) => {
        const key = keys[i]!;
        if (list.kind === 'set') {
          if (!old.has(key)) out[key] = {};
          return;
        }
        const d = diff(e, old.get(key), shape.items());
        // An atomic element is one value: its key alone, as structured-merge-diff records it.
        if (d) out[key] = shape.items().atomic() ? {} : { '.': {}, ...d };
      });
      return Object.keys(out).length > 0 ? out : null;
    }
  }
  return jsonEqual(n, o) ? null : {};
}

export function union(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isPlain(out[k]) && isPlain(v) ? union(out[k] as FieldSet, v) : v;
  return out;
}

/** The fields `obj` sets differently from `old` (everything, for a create), in FieldsV1 form. */
export function changedFields(
  obj: KubeObject,
  old: KubeObject | undefined,
  subresource: string | undefined,
  shape: Shape,
): FieldSet | null {
  const pick = (o: KubeObject | undefined): Record<string, unknown> => {
    if (!o) return {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      if (k === 'apiVersion' || k === 'kind' || k === 'metadata') continue;
      if (subresource === 'status' ? k === 'status' : k !== 'status') out[k] = v;
    }
    const meta: Record<string, unknown> = {};
    for (const k of META_TRACKED)
      if (o.metadata[k as keyof typeof o.metadata] !== undefined) meta[k] = o.metadata[k as keyof typeof o.metadata];
    if (Object.keys(meta).length > 0) out.metadata = meta;
    return out;
  };
  const d = diff(pick(obj), pick(old), shape);
  return d && Object.keys(d).length > 0 ? d : null;
}

/** True when a field-set node is a leaf (`{}`, or only the `.` marker of a keyed list element). */
export const isLeaf = (s: unknown): boolean => isPlain(s) && Object.keys(s).every((k) => k === '.');

/** `set` without the leaves of `remove`; containers left empty disappear. Returns null when nothing is left. */
export function subtract(set: FieldSet, remove: FieldSet): FieldSet | null {
  const out: FieldSet = {};
  for (const [k, v] of Object.entries(set)) {
    const r = remove[k];
    if (r === undefined || k === '.') out[k] = v;
    else if (isLeaf(r)) continue;
    else if (isPlain(v) && !isLeaf(v)) {
      const rest = subtract(v, r as FieldSet);
      if (rest) out[k] = rest;
    } else out[k] = v;
  }
  return Object.keys(out).some((k) => k !== '.') ? out : null;
}

/** Every field the object sets, in FieldsV1 form (what an apply configuration claims). */
export function fieldSetOf(obj: KubeObject, subresource: string | undefined, shape: Shape): FieldSet {
  return changedFields(obj, undefined, subresource, shape) ?? {};
}

/** The managed-fields entries of an object, ignoring malformed ones. */
export function entriesOf(obj: KubeObject): ManagedFieldsEntry[] {
  return ((obj.metadata.managedFields ?? []) as ManagedFieldsEntry[]).filter(
    (e) => isPlain(e) && typeof e.manager === 'string' && isPlain(e.fieldsV1),
  );
}

/**
 * The fields admission changed between `request` (the object as the request gave it) and
 * `admitted`, less those the request itself changed against `old`: kube-apiserver records a
 * write's managed fields before mutating admission runs, so no manager owns these.
 */
export function admissionOnlyFields(
  request: KubeObject,
  admitted: KubeObject,
  old: KubeObject | undefined,
  subresource: string | undefined,
  shape: Shape,
): FieldSet | undefined {
  const byAdmission = changedFields(admitted, request, subresource, shape);
  const byRequest = changedFields(request, old, subresource, shape);
  if (!byAdmission) return undefined;
  return (byRequest ? subtract(byAdmission, byRequest) : byAdmission) ?? undefined;
}

/**
 * Records an update by `manager` on `obj.metadata.managedFields` (mutates `obj`). `unowned` are
 * fields mutating admission set (`admissionOnlyFields`): they change hands to nobody.
 */
export function recordManagedFields(
  obj: KubeObject,
  old: KubeObject | undefined,
  opts: { manager: string; apiVersion: string; time: string; subresource?: string; shape: Shape; unowned?: FieldSet },
): void {
  const all = changedFields(obj, old, opts.subresource, opts.shape);
  const changed = all && opts.unowned ? subtract(all, opts.unowned) : all;
  let entries = entriesOf(obj);
  if (!changed) {
    if (entries.length > 0) obj.metadata.managedFields = entries;
    else delete obj.metadata.managedFields;
    return;
  }
  const same = (e: ManagedFieldsEntry): boolean =>
    e.manager === opts.manager && e.operation === 'Update' && (e.subresource ?? '') === (opts.subresource ?? '');
  const prev = entries.find(same);
  entries = entries
    .filter((e) => !same(e))
    .flatMap((e) => {
      const rest = subtract(e.fieldsV1, changed);
      return rest ? [{ ...e, fieldsV1: rest }] : [];
    });
  const entry: ManagedFieldsEntry = {
    manager: opts.manager,
    operation: 'Update',
    apiVersion: opts.apiVersion,
    time: opts.time,
    fieldsType: 'FieldsV1',
    fieldsV1: prev ? union(prev.fieldsV1, changed) : changed,
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  };
  obj.metadata.managedFields = [...entries, entry];
}
