/**
 * Server-side apply (https://kubernetes.io/docs/reference/using-api/server-side-apply/) on plain JSON:
 * the applied configuration is merged into the live object
 * (objects field by field, keyed lists element by element, sets value by value, atomic lists, atomic
 * maps and scalars replaced — `field-shape.ts` says which is which); fields the manager applied last
 * time and omits now are removed unless another manager still owns them; changing a field another manager owns is a conflict (409 with one
 * `FieldManagerConflict` cause per field) unless `force`, which takes the field over. The manager's
 * `Apply` entry then lists exactly the fields of this configuration.
 * Invariant: fields owned only by other managers are never removed by an apply.
 */
import { jsonEqual, type KubeObject } from '../../meta/index.js';
import { elementKey, type Shape } from './field-shape.js';
import { entriesOf, fieldSetOf, isLeaf, isPlain, subtract, type FieldSet, type ManagedFieldsEntry } from './managed-fields.js';
import { ApiStatusError, type FieldCause } from '../ground/index.js';

type Json = Record<string, unknown>;

/**
 * `applied` merged into `live` as apply merges them, without ownership: objects field by field
 * (null removes) unless atomic, keyed lists and sets element by element, the rest replaced. Mutating admission
 * policies merge their apply configurations this way.
 */
export function merge(live: unknown, applied: unknown, shape: Shape): unknown {
  if (isPlain(applied) && isPlain(live) && !shape.atomic()) {
    const out: Json = { ...live };
    for (const [k, v] of Object.entries(applied)) {
      if (v === null) delete out[k];
      else out[k] = merge(live[k], v, shape.field(k));
    }
    return out;
  }
  const list = shape.list();
  if (Array.isArray(applied) && Array.isArray(live) && list.kind !== 'atomic' && applied.every((e) => elementKey(list, e) !== undefined)) {
    const out = [...live];
    for (const e of applied) {
      const key = elementKey(list, e);
      const i = out.findIndex((x) => elementKey(list, x) === key);
      if (i < 0) out.push(structuredClone(e));
      else if (list.kind === 'map') out[i] = merge(out[i], e, shape.items());
    }
    return out;
  }
  return structuredClone(applied);
}

/**
 * The fields a `k:` key names, or undefined when it does not hold a JSON object: managed fields come
 * from clients too, so a malformed key must address nothing rather than fail the write.
 */
function keyFields(key: string): Json | undefined {
  if (!key.startsWith('k:')) return undefined;
  try {
    const want: unknown = JSON.parse(key.slice(2));
    return isPlain(want) ? want : undefined;
  } catch (e) {
    if (e instanceof SyntaxError) return undefined;
    throw e;
  }
}

/** Index of the list element a `k:`/`v:` key addresses, or -1 (an `f:` key addresses no element). */
function indexOf(list: unknown[], key: string): number {
  if (key.startsWith('v:')) return list.findIndex((e) => JSON.stringify(e) === key.slice(2));
  const want = keyFields(key);
  if (want === undefined) return -1;
  return list.findIndex((e) => isPlain(e) && Object.entries(want).every(([k, x]) => e[k] === x));
}

/** The child of a value addressed by one FieldsV1 key (`f:name`, `k:{"name":"x"}`, `v:"x"`). */
function child(v: unknown, key: string): unknown {
  if (key.startsWith('f:')) return isPlain(v) ? v[key.slice(2)] : undefined;
  if (Array.isArray(v)) {
    const i = indexOf(v, key);
    return i < 0 ? undefined : v[i];
  }
  return undefined;
}

function removeChild(v: unknown, key: string): void {
  if (key.startsWith('f:') && isPlain(v)) delete v[key.slice(2)];
  else if (Array.isArray(v)) {
    const i = indexOf(v, key);
    if (i >= 0) v.splice(i, 1);
  }
}

function render(path: string, key: string): string {
  if (key.startsWith('f:')) return `${path}.${key.slice(2)}`;
  if (key.startsWith('v:')) return `${path}[${key.slice(2)}]`;
  const fields = keyFields(key);
  if (fields === undefined) return `${path}[${key}]`;
  return `${path}[${Object.entries(fields)
    .map(([k, x]) => `${k}=${JSON.stringify(x)}`)
    .join(',')}]`;
}

interface Owner {
  entry: ManagedFieldsEntry;
  set: FieldSet | undefined;
}

/** Leaves of `fs` whose applied value differs from the live one and that another manager owns. */
function findConflicts(
  applied: unknown,
  live: unknown,
  fs: FieldSet,
  owners: Owner[],
  path: string,
  out: { owner: ManagedFieldsEntry; field: string }[],
): void {
  for (const [key, sub] of Object.entries(fs)) {
    if (key === '.') continue;
    const here = owners.map((o) => ({ entry: o.entry, set: o.set?.[key] as FieldSet | undefined }));
    const a = child(applied, key);
    const l = child(live, key);
    if (isLeaf(sub)) {
      if (jsonEqual(a, l)) continue;
      for (const o of here) if (o.set !== undefined) out.push({ owner: o.entry, field: render(path, key) });
    } else {
      findConflicts(
        a,
        l,
        sub as FieldSet,
        here.filter((o) => o.set !== undefined),
        render(path, key),
        out,
      );
    }
  }
}

/** Removes from `obj` the fields of `prev` that are neither in `next` nor owned by `others`. */
function prune(obj: unknown, prev: FieldSet, next: FieldSet | undefined, others: FieldSet[]): void {
  for (const [key, sub] of Object.entries(prev)) {
    if (key === '.') continue;
    const n = next?.[key] as FieldSet | undefined;
    const o = others.map((x) => x[key] as FieldSet | undefined).filter((x): x is FieldSet => x !== undefined);
    if (n === undefined && o.length === 0) removeChild(obj, key);
    else if (!isLeaf(sub)) prune(child(obj, key), sub as FieldSet, n, o);
  }
}

const describe = (e: ManagedFieldsEntry): string =>
  `"${e.manager}"${e.operation === 'Update' ? ` using ${e.apiVersion}` : ''}${e.subresource ? ` with subresource "${e.subresource}"` : ''}`;

export interface ApplyOptions {
  manager: string;
  force: boolean;
  apiVersion: string;
  time: string;
  subresource?: string;
  /** For the conflict Status. */
  target: { group: string; plural: string; name: string };
  /** How the kind's lists merge. */
  shape: Shape;
}

/** Applies `applied` to `live` (both in the request's version); returns the object to write, managedFields included. */
export function serverSideApply(live: KubeObject, applied: KubeObject, o: ApplyOptions): KubeObject {
  const sub = o.subresource ?? '';
  const entries = entriesOf(live);
  const mine = (e: ManagedFieldsEntry): boolean => e.manager === o.manager && e.operation === 'Apply' && (e.subresource ?? '') === sub;
  const prev = entries.find(mine)?.fieldsV1 ?? {};
  const others = entries.filter((e) => !mine(e));
  const fs = fieldSetOf(applied, o.subresource, o.shape);
  const conflicts: { owner: ManagedFieldsEntry; field: string }[] = [];
  findConflicts(
    applied,
    live,
    fs,
    others.map((e) => ({ entry: e, set: e.fieldsV1 })),
    '',
    conflicts,
  );
  let kept = others;
  if (conflicts.length > 0) {
    if (!o.force) {
      const causes: FieldCause[] = conflicts.map((c) => ({
        reason: 'FieldManagerConflict',
        message: `conflict with ${describe(c.owner)}`,
        field: c.field,
      }));
      const list = conflicts.map((c) => `conflict with ${describe(c.owner)}: ${c.field}`).join('\n- ');
      const message = `Apply failed with ${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'}: ${conflicts.length === 1 ? list : `\n- ${list}`}`;
      throw new ApiStatusError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message,
        reason: 'Conflict',
        code: 409,
        // Only the causes, as apimachinery's NewApplyConflict reports them: no name, group or kind.
        details: { causes },
      });
    }
    kept = others.flatMap((e) => {
      const rest = subtract(e.fieldsV1, fs);
      return rest ? [{ ...e, fieldsV1: rest }] : [];
    });
  }
  const merged = merge(structuredClone(live), applied, o.shape) as KubeObject;
  prune(
    merged,
    prev,
    fs,
    kept.map((e) => e.fieldsV1),
  );
  const entry: ManagedFieldsEntry = {
    manager: o.manager,
    operation: 'Apply',
    apiVersion: o.apiVersion,
    time: o.time,
    fieldsType: 'FieldsV1',
    fieldsV1: fs,
    ...(o.subresource ? { subresource: o.subresource } : {}),
  };
  merged.metadata.managedFields = [...kept, entry];
  return merged;
}
