/**
 * The write pipeline every verb shares: create, update and delete of one object, with the real
 * server's order of steps — server-set metadata, strategy defaulting, generation and status rules,
 * validation, namespace lifecycle, owner-reference permissions, validating admission policies, optimistic concurrency, managed fields, no-op detection, then one
 * synchronous commit. Handlers decode and check the request; this file decides what is stored.
 *
 * Invariants: nothing between the read of the stored object and the commit awaits, so checks and
 * write are atomic; a write that changes nothing (ignoring managedFields) stores nothing and emits no
 * event; dry runs run every step except the commit.
 */
import { formatTimestamp, jsonEqual, type KubeObject } from '../../meta/index.js';
import { metaOf, present, storageKey, type Scope, type ServerContext } from '../registry/index.js';
import { recordManagedFields, shapeOf, type FieldSet } from '../apply/index.js';
import type { Strategy, WriteContext } from '../registry/index.js';
import { builtinSchemas, dropFields, inspectBody } from '../builtin-schemas/index.js';
import {
  alreadyExists,
  badRequest,
  conflict,
  fieldCause,
  forbidden,
  invalid,
  modifiedConflict,
  notFound,
  type FieldCause,
} from '../ground/index.js';
import { validateObjectMeta } from '../registry/index.js';
import { enforceOwnerReferencePermissions, validateWrite } from '../admission/index.js';
import { takeUnknownFields, type WriteParams } from './params.js';

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
const NAMESPACES = { group: '', plural: 'namespaces' };

export interface WriteResult {
  status: number;
  object: KubeObject;
  warnings: string[];
}

export function writeContext(scope: Scope, params: WriteParams): WriteContext {
  return {
    version: scope.version,
    now: scope.ctx.clock.now(),
    fieldValidation: params.fieldValidation,
    warnings: [],
    kubernetesMinor: scope.ctx.kubernetesMinor,
  };
}

function generateName(prefix: string): string {
  let s = prefix.slice(0, 58);
  for (let i = 0; i < 5; i++) s += NAME_CHARS[Math.floor(Math.random() * NAME_CHARS.length)];
  return s;
}

function failInvalid(strategy: Strategy, obj: KubeObject, causes: FieldCause[]): void {
  if (causes.length > 0) throw invalid(strategy.kind, strategy.group, obj.metadata.name ?? '', causes);
}

/**
 * A built-in object's fields its kind's schema does not declare: a 400 under `fieldValidation=Strict`,
 * one warning each under `Warn`, dropped either way, as the real server's strict JSON decoder reports
 * and drops them. `Ignore` skips the walk (the server's own writes use it, so a TestEnv that never
 * validates never loads the schemas), keeping such fields. Custom resources prune in their strategy.
 */
function checkUnknownFields(scope: Scope, obj: KubeObject, wctx: WriteContext): void {
  const { strategy, version } = scope;
  if (strategy.custom || wctx.fieldValidation === 'Ignore') return;
  const schemas = builtinSchemas();
  const component = schemas.componentOf({ group: strategy.group, version, kind: strategy.kind });
  if (component === undefined) return;
  // A request body as decoded was walked then (with its types); an object admission or the server built is walked here.
  const listed =
    takeUnknownFields(obj, component) ??
    inspectBody(schemas, component, obj as unknown as Record<string, unknown>, { types: false }).unknown;
  const unknown = dropFields(listed);
  if (unknown.length === 0) return;
  if (wctx.fieldValidation === 'Strict') {
    const list = unknown.map((p) => `unknown field "${p}"`).join(', ');
    throw badRequest(`${strategy.kind} in version "${version}" cannot be handled as a ${strategy.kind}: strict decoding error: ${list}`);
  }
  for (const p of unknown) wctx.warnings.push(`unknown field "${p}"`);
}

/** NamespaceLifecycle admission: the namespace must exist and not be terminating (create only). */
export function checkNamespaceOpen(ctx: ServerContext, strategy: Strategy, obj: KubeObject): void {
  if (!strategy.namespaced) return;
  const ns = obj.metadata.namespace!;
  const nsObj = ctx.store.get('/namespaces', ns);
  if (!nsObj) throw notFound(NAMESPACES, ns);
  if (nsObj.metadata.deletionTimestamp) {
    throw forbidden(strategy, obj.metadata.name ?? '', `unable to create new content in namespace ${ns} because it is being terminated`, [
      { reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' },
    ]);
  }
}

/**
 * Creates `obj` (already decoded, typeMeta and namespace reconciled). `applied` is the field set of
 * a server-side apply configuration, recorded as the manager's `Apply` entry (defaults excluded).
 */
export function createObject(scope: Scope, obj: KubeObject, params: WriteParams, applied?: FieldSet): WriteResult {
  const { strategy, ctx } = scope;
  const wctx = writeContext(scope, params);
  const m = metaOf(obj);
  for (const f of ['uid', 'resourceVersion', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation', 'selfLink'] as const)
    delete m[f];
  m.creationTimestamp = formatTimestamp(wctx.now);
  m.uid = ctx.newUid();
  checkUnknownFields(scope, obj, wctx);
  strategy.checkDecodable(obj);
  strategy.prepareForCreate(obj, wctx);
  if (strategy.tracksGeneration) m.generation = 1;
  const generated = !m.name && !!m.generateName;
  if (generated) m.name = generateName(m.generateName!);
  failInvalid(strategy, obj, [
    ...validateObjectMeta(obj, { nameRule: strategy.nameRule, namespaced: strategy.namespaced }),
    ...strategy.validate(obj, wctx),
  ]);
  checkNamespaceOpen(ctx, strategy, obj);
  enforceOwnerReferencePermissions(scope, obj, undefined);
  wctx.warnings.push(
    ...validateWrite(scope, params.admission, { operation: 'CREATE', object: obj, old: undefined, dryRun: params.dryRun }),
  );
  let key = storageKey(strategy, m.namespace ?? '', m.name!);
  for (let attempt = 0; ctx.store.get(strategy.storageId, key); attempt++) {
    if (!generated || attempt >= 8) {
      const existing = ctx.store.get(strategy.storageId, key)!;
      const err = alreadyExists(strategy, m.name!, existing.metadata.deletionTimestamp ? 'object is being deleted: ' : '');
      if (generated) {
        err.status.message += ', the server was not able to generate a unique name for the object';
        err.status.details!.retryAfterSeconds = 1;
      }
      throw err;
    }
    m.name = generateName(m.generateName!);
    key = storageKey(strategy, m.namespace ?? '', m.name);
  }
  if (applied) {
    m.managedFields = [
      {
        manager: params.manager,
        operation: 'Apply',
        apiVersion: String(obj.apiVersion),
        time: formatTimestamp(wctx.now),
        fieldsType: 'FieldsV1',
        fieldsV1: applied,
      },
    ];
  } else {
    recordManagedFields(obj, undefined, {
      manager: params.manager,
      apiVersion: String(obj.apiVersion),
      time: formatTimestamp(wctx.now),
      shape: shapeOf(strategy, scope.version),
      ...(params.unowned ? { unowned: params.unowned } : {}),
    });
  }
  const stored = strategy.toInternal(obj);
  if (params.dryRun) return { status: 201, object: stored, warnings: wctx.warnings };
  return { status: 201, object: ctx.store.create(strategy.storageId, key, stored), warnings: wctx.warnings };
}

/** Checks the optimistic-concurrency precondition of a PUT body against the stored object. */
export function checkResourceVersion(scope: Scope, obj: KubeObject, old: KubeObject): void {
  const rv = obj.metadata.resourceVersion;
  if (!rv) {
    if (!scope.strategy.allowUnconditionalUpdate) {
      throw invalid(scope.strategy.kind, scope.strategy.group, old.metadata.name ?? '', [
        fieldCause.invalid('metadata.resourceVersion', 0, 'must be specified for an update'),
      ]);
    }
    return;
  }
  if (rv !== old.metadata.resourceVersion) {
    throw modifiedConflict(scope.strategy, old.metadata.name ?? '');
  }
}

const IMMUTABLE_META = [
  'name',
  'namespace',
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
] as const;

function withoutVolatile(o: KubeObject): KubeObject {
  const { managedFields: _mf, resourceVersion: _rv, ...meta } = o.metadata;
  return { ...o, metadata: meta };
}

/**
 * Updates the stored `stored` to `obj` (a fresh object the caller owns, in the request's group and
 * version) through `subresource` ('' or 'status'). The caller has checked the resourceVersion
 * precondition. Every rule compares against the stored object as the request sees it.
 */
export function updateObject(
  scope: Scope,
  stored: KubeObject,
  obj: KubeObject,
  params: WriteParams,
  operation: 'Update' | 'Apply' = 'Update',
): WriteResult {
  const { strategy, ctx } = scope;
  const old = present(scope, stored);
  const wctx = writeContext(scope, params);
  const m = metaOf(obj);
  for (const f of IMMUTABLE_META) {
    if (old.metadata[f] === undefined) delete m[f];
    else (m as Record<string, unknown>)[f] = old.metadata[f];
  }
  delete m.selfLink;
  if (m.managedFields === undefined || (Array.isArray(m.managedFields) && m.managedFields.length === 0)) {
    if (old.metadata.managedFields) m.managedFields = old.metadata.managedFields;
    else delete m.managedFields;
  }
  if (old.metadata.resourceVersion === undefined) delete m.resourceVersion;
  else m.resourceVersion = old.metadata.resourceVersion;
  checkUnknownFields(scope, obj, wctx);
  strategy.checkDecodable(obj);
  if (scope.subresource === 'status') strategy.prepareForStatusUpdate(obj, old, wctx);
  else {
    strategy.prepareForUpdate(obj, old, wctx);
    if (strategy.tracksGeneration && strategy.generationChanged(obj, old)) m.generation = (old.metadata.generation ?? 0) + 1;
  }
  const causes = [
    ...validateObjectMeta(obj, { nameRule: strategy.nameRule, namespaced: strategy.namespaced }),
    ...strategy.validateUpdate(obj, old, wctx),
  ];
  if (old.metadata.deletionTimestamp) {
    const added = (m.finalizers ?? []).filter((f) => !(old.metadata.finalizers ?? []).includes(f));
    if (added.length > 0) {
      causes.push(
        fieldCause.forbidden(
          'metadata.finalizers',
          `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added).replace(/,/g, ' ')}`,
        ),
      );
    }
  }
  failInvalid(strategy, obj, causes);
  enforceOwnerReferencePermissions(scope, obj, old);
  wctx.warnings.push(...validateWrite(scope, params.admission, { operation: 'UPDATE', object: obj, old, dryRun: params.dryRun }));
  if (jsonEqual(withoutVolatile(obj), withoutVolatile(old))) return { status: 200, object: stored, warnings: wctx.warnings };
  if (operation === 'Update') {
    recordManagedFields(obj, old, {
      manager: params.manager,
      apiVersion: String(obj.apiVersion),
      time: formatTimestamp(wctx.now),
      shape: shapeOf(strategy, scope.version),
      ...(scope.subresource ? { subresource: scope.subresource } : {}),
      ...(params.unowned ? { unowned: params.unowned } : {}),
    });
  }
  const key = storageKey(strategy, old.metadata.namespace ?? '', old.metadata.name!);
  // The last finalizer going deletes the object, unless a grace period is still running (a Pod on a node).
  const finished = finishesDeletion(strategy, obj);
  const next = strategy.toInternal(obj);
  if (params.dryRun) return { status: 200, object: next, warnings: wctx.warnings };
  if (finished) {
    ctx.store.delete(strategy.storageId, key, next);
    return { status: 200, object: next, warnings: wctx.warnings };
  }
  return { status: 200, object: ctx.store.update(strategy.storageId, key, next), warnings: wctx.warnings };
}

/** Whether writing `obj` ends its deletion: the last finalizer went and no grace period runs (a Pod on a node keeps one). */
export function finishesDeletion(strategy: Strategy, obj: KubeObject): boolean {
  const m = obj.metadata;
  return (
    !!m.deletionTimestamp && (m.finalizers ?? []).length === 0 && (m.deletionGracePeriodSeconds ?? 0) === 0 && !strategy.holdsDeletion(obj)
  );
}

export interface DeleteParams {
  dryRun: boolean;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  /** The legacy `orphanDependents: false` was sent: a delete that is not immediate answers 202. */
  legacyCascade?: boolean;
}

export type DeleteOutcome = { kind: 'deleted'; object: KubeObject } | { kind: 'pending'; object: KubeObject };

const GC_FINALIZERS = { Orphan: 'orphan', Foreground: 'foregroundDeletion' } as const;

/**
 * Deletes one stored object in kube-apiserver's order (`Delete` in k8s.io/apiserver's
 * `pkg/registry/generic/registry/store.go`, https://github.com/kubernetes/apiserver): preconditions,
 * propagation finalizers, graceful deletion, then either marks it deleting (finalizers or a grace period pending: MODIFIED) or removes it (DELETED).
 * A later delete with grace 0 ends a pending grace period.
 */
export function performDelete(ctx: ServerContext, strategy: Strategy, key: string, p: DeleteParams): DeleteOutcome {
  const old = ctx.store.get(strategy.storageId, key);
  const name = key.includes('/') ? key.slice(key.indexOf('/') + 1) : key;
  if (!old) throw notFound(strategy, name);
  const pre = p.preconditions;
  if (pre?.uid && pre.uid !== old.metadata.uid) {
    throw conflict(
      strategy,
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${old.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (pre?.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion) {
    throw conflict(
      strategy,
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${old.metadata.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
  let finalizers = [...(old.metadata.finalizers ?? [])];
  if (p.propagationPolicy) {
    finalizers = finalizers.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
    if (p.propagationPolicy !== 'Background') finalizers.push(GC_FINALIZERS[p.propagationPolicy]);
  }
  const changedFinalizers = !jsonEqual(finalizers, old.metadata.finalizers ?? []);
  const grace = strategy.gracePeriodSeconds(old, p.gracePeriodSeconds);
  if (old.metadata.deletionTimestamp) {
    const graceEnds = grace === 0 && (old.metadata.deletionGracePeriodSeconds ?? 0) > 0;
    if (graceEnds && finalizers.length === 0)
      return { kind: 'deleted', object: p.dryRun ? old : ctx.store.delete(strategy.storageId, key) };
    if (!changedFinalizers && !graceEnds) return { kind: 'pending', object: old };
    const next = { ...old, metadata: { ...old.metadata, finalizers, ...(graceEnds ? { deletionGracePeriodSeconds: 0 } : {}) } };
    return { kind: 'pending', object: p.dryRun ? next : ctx.store.update(strategy.storageId, key, next) };
  }
  if (finalizers.length > 0 || grace > 0) {
    const meta = {
      ...old.metadata,
      finalizers,
      deletionTimestamp: formatTimestamp(ctx.clock.now() + grace * 1000),
      deletionGracePeriodSeconds: grace,
    };
    if (finalizers.length === 0) delete (meta as { finalizers?: string[] }).finalizers;
    if (old.metadata.generation) meta.generation = old.metadata.generation + 1;
    const next = { ...old, metadata: meta };
    return { kind: 'pending', object: p.dryRun ? next : ctx.store.update(strategy.storageId, key, next) };
  }
  return { kind: 'deleted', object: p.dryRun ? old : ctx.store.delete(strategy.storageId, key) };
}
