/**
 * PATCH on an object, its `status` or its `scale`: JSON patch, merge patch, strategic merge patch
 * (built-in kinds only; 415 for custom resources, as on a real cluster) and server-side apply
 * (create-or-merge with the field manager recorded as an `Apply` entry). The patched object then goes
 * through the same update pipeline as a PUT; a resourceVersion set by the patch is a precondition.
 * Patched objects are held to the body nesting limit too, so patches cannot grow a stored object past it.
 */
import { formatTimestamp, type KubeObject } from '../../meta/index.js';
import { present, storageKey, type Scope } from '../registry/index.js';
import { fieldSetOf, serverSideApply, shapeOf } from '../apply/index.js';
import { bodyText, checkMetadataShape, mediaType, parseDocument } from '../wire/index.js';
import { nestsDeeperThan, patchedTooDeep } from '../nesting.js';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, MAX_JSON_PATCH_OPERATIONS, PatchError } from '../patch/index.js';
import type { ApiResponse } from '../wire/index.js';
import { jsonResponse } from '../wire/index.js';
import {
  ApiStatusError,
  badRequest,
  fieldCause,
  invalid,
  modifiedConflict,
  notFound,
  tooLarge,
  unsupportedMediaType,
} from '../ground/index.js';
import { checkTypeMeta, reconcileNamespace, writeParams } from './params.js';
import { queryBool } from './query-bool.js';
import { objectResponse, warningHeaders } from './respond.js';
import { applyScale, scaleOf } from './scale.js';
import { createObject, updateObject } from './write-pipeline.js';
import { admitWrite, afterWrite } from '../admission/index.js';
import { storedWrite, withViews } from './webhook-conversion.js';

type PatchKind = 'json' | 'merge' | 'strategic' | 'apply';

const TYPES: Record<string, PatchKind> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+json': 'apply',
};

function unsupported(): ApiStatusError {
  return unsupportedMediaType(
    'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
  );
}

function runPatch(kind: Exclude<PatchKind, 'apply'>, doc: unknown, patch: unknown, scope: Scope): unknown {
  if (kind === 'json' && Array.isArray(patch) && patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw tooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`);
  }
  try {
    if (kind === 'json') return applyJsonPatch(doc, patch);
    if (kind === 'merge') return applyMergePatch(doc, patch);
    return applyStrategicMergePatch(doc, patch, { group: scope.strategy.group, version: scope.version, kind: scope.strategy.kind });
  } catch (e) {
    if (e instanceof PatchError) {
      if (e.httpCode === 400) throw badRequest(e.message);
      throw invalid(scope.strategy.kind, scope.strategy.group, scope.name, [
        { reason: 'FieldValueInvalid', field: '', message: e.message },
      ]);
    }
    throw e;
  }
}

/** The patched value as an object, held to the nesting limit (a JSON patch can add a deep value at a deep path). */
function patchedObject(v: unknown, scope: Scope): KubeObject {
  if (nestsDeeperThan(v)) throw patchedTooDeep(scope.strategy.kind, scope.strategy.group, scope.name);
  return asObject(v);
}

function asObject(v: unknown): KubeObject {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw badRequest('the patched object must be a JSON object');
  const o = v as KubeObject;
  checkMetadataShape(o);
  return o;
}

export function patchHandler(scope: Scope): ApiResponse | Promise<ApiResponse> {
  const { strategy, ctx } = scope;
  const kind = TYPES[mediaType(scope.req)];
  if (!kind) throw unsupported();
  // Every built-in kind takes a strategic merge patch (kinds without merge keys follow the default
  // rules: maps merge, lists are replaced); only custom resources answer 415, as the real server does.
  if (kind === 'strategic' && strategy.custom) throw unsupported();
  const params = writeParams(scope, 'PatchOptions');
  if (scope.query.has('force') && kind !== 'apply') {
    throw invalid('PatchOptions', 'meta.k8s.io', '', [fieldCause.forbidden('force', 'may not be specified for non-apply patch')]);
  }
  const patch = parseDocument(bodyText(scope.req), mediaType(scope.req) === 'application/apply-patch+yaml', 'patch');
  const key = storageKey(strategy, scope.namespace, scope.name);
  const old = ctx.store.get(strategy.storageId, key);
  if (kind === 'apply') return applyHandler(scope, old, asObject(patch), params);
  if (!old) throw notFound(strategy, scope.name);
  if (scope.subresource === 'scale') {
    const current = scaleOf(scope, old);
    const patched = patchedObject(runPatch(kind, structuredClone(current), patch, scope), scope);
    checkPrecondition(scope, patched, old);
    const parent = { ...scope, subresource: '' };
    const next = applyScale(scope, present(scope, old), patched);
    const r = storedWrite(parent, old, params.dryRun, (dryRun) => updateObject(parent, old, next, { ...params, dryRun }));
    return afterWrite(r, (w) =>
      withViews(scope, [w.object], () => jsonResponse(200, scaleOf(scope, w.object), warningHeaders(w.warnings))),
    );
  }
  const patched = patchedObject(runPatch(kind, structuredClone(present(scope, old)), patch, scope), scope);
  checkTypeMeta(scope, patched);
  checkPrecondition(scope, patched, old);
  if (patched.metadata.name !== old.metadata.name) {
    throw badRequest(`the name of the object (${String(patched.metadata.name ?? '')}) does not match the name on the URL (${scope.name})`);
  }
  reconcileNamespace(scope, patched);
  const request = { operation: 'UPDATE' as const, object: patched, old: present(scope, old), dryRun: params.dryRun };
  const written = admitWrite(scope, request, (o, dryRun, admitted) =>
    storedWrite(scope, old, dryRun, (dry) => updateObject(scope, old, o!, { ...params, dryRun: dry, ...admitted })),
  );
  return afterWrite(written, (r) => objectResponse(scope, r));
}

function checkPrecondition(scope: Scope, patched: KubeObject, old: KubeObject): void {
  const rv = patched.metadata.resourceVersion;
  if (rv && rv !== old.metadata.resourceVersion) {
    throw modifiedConflict(scope.strategy, scope.name);
  }
}

/** Server-side apply: creates a missing object, else merges with field ownership (`server-side-apply.ts`). */
function applyHandler(
  scope: Scope,
  old: KubeObject | undefined,
  applied: KubeObject,
  params: ReturnType<typeof writeParams>,
): ApiResponse | Promise<ApiResponse> {
  if (!scope.query.get('fieldManager')) {
    throw invalid('PatchOptions', 'meta.k8s.io', '', [fieldCause.required('fieldManager', 'is required for apply patch')]);
  }
  if (applied.metadata.managedFields !== undefined) throw badRequest('metadata.managedFields must be nil');
  if (!applied.apiVersion || !applied.kind) throw badRequest('apiVersion and kind must be set in an apply patch');
  checkTypeMeta(scope, applied);
  if (applied.metadata.name !== scope.name) {
    throw badRequest(`the name of the object (${String(applied.metadata.name ?? '')}) does not match the name on the URL (${scope.name})`);
  }
  reconcileNamespace(scope, applied);
  if (!old) {
    if (scope.subresource) throw notFound(scope.strategy, scope.name);
    const fields = fieldSetOf(applied, undefined, shapeOf(scope.strategy, scope.version));
    const created = admitWrite(scope, { operation: 'CREATE', object: applied, dryRun: params.dryRun }, (o, dryRun, { admission }) =>
      storedWrite(scope, undefined, dryRun, (dry) => createObject(scope, o!, { ...params, dryRun: dry, admission }, fields)),
    );
    return afterWrite(created, (r) => objectResponse(scope, r));
  }
  checkPrecondition(scope, applied, old);
  const { resourceVersion: _rv, ...appliedMeta } = applied.metadata;
  const force = queryBool(scope.query, 'force') ?? false;
  const merged = serverSideApply(
    present(scope, old),
    { ...applied, metadata: appliedMeta },
    {
      manager: params.manager,
      force,
      apiVersion: scope.strategy.apiVersion(scope.version),
      time: formatTimestamp(scope.ctx.clock.now()),
      ...(scope.subresource ? { subresource: scope.subresource } : {}),
      target: { group: scope.strategy.group, plural: scope.strategy.plural, name: scope.name },
      shape: shapeOf(scope.strategy, scope.version),
    },
  );
  const request = { operation: 'UPDATE' as const, object: patchedObject(merged, scope), old: present(scope, old), dryRun: params.dryRun };
  const written = admitWrite(scope, request, (o, dryRun, { admission }) =>
    storedWrite(scope, old, dryRun, (dry) => updateObject(scope, old, o!, { ...params, dryRun: dry, admission }, 'Apply')),
  );
  return afterWrite(written, (r) => objectResponse(scope, r));
}
