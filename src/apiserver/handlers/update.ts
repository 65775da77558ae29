/**
 * PUT on an object, its `status` or its `scale`: the body's name must match the URL, a `metadata.uid`
 * in the body is a precondition on the stored object's (409 when they differ), an empty
 * resourceVersion is an unconditional update only where the type allows it (422 otherwise), a stale
 * one is a 409; types that allow create-on-update (Lease) create a missing object (201).
 */
import { present, storageKey, type Scope } from '../registry/index.js';
import { decodeObject } from '../wire/index.js';
import type { ApiResponse } from '../wire/index.js';
import { jsonResponse } from '../wire/index.js';
import { badRequest, conflict, notFound } from '../ground/index.js';
import { checkTypeMeta, reconcileNamespace, writeParams } from './params.js';
import { objectResponse, warningHeaders } from './respond.js';
import { applyScale, scaleOf } from './scale.js';
import { checkResourceVersion, createObject, updateObject } from './write-pipeline.js';
import { admitWrite, afterWrite } from '../admission/index.js';
import { storedWrite, withViews } from './webhook-conversion.js';

export function updateHandler(scope: Scope): ApiResponse | Promise<ApiResponse> {
  const { strategy, ctx } = scope;
  const params = writeParams(scope, 'UpdateOptions');
  const obj = decodeObject(scope.req, scope.ctx.registry);
  const isScale = scope.subresource === 'scale';
  checkTypeMeta(scope, obj, isScale ? { apiVersion: 'autoscaling/v1', kind: 'Scale' } : undefined);
  if (obj.metadata.name !== scope.name) {
    throw badRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${scope.name})`);
  }
  reconcileNamespace(scope, obj);
  const old = ctx.store.get(strategy.storageId, storageKey(strategy, scope.namespace, scope.name));
  checkUid(scope, obj.metadata.uid, old?.metadata.uid);
  if (!old) {
    if (strategy.allowCreateOnUpdate && !scope.subresource) {
      const created = admitWrite(scope, { operation: 'CREATE', object: obj, dryRun: params.dryRun }, (o, dryRun, admitted) =>
        storedWrite(scope, undefined, dryRun, (dry) => createObject(scope, o!, { ...params, dryRun: dry, ...admitted })),
      );
      return afterWrite(created, (r) => objectResponse(scope, r));
    }
    throw notFound(strategy, scope.name);
  }
  checkResourceVersion(scope, obj, old);
  if (isScale) {
    const parent = { ...scope, subresource: '' };
    const next = applyScale(scope, present(scope, old), obj);
    const r = storedWrite(parent, old, params.dryRun, (dryRun) => updateObject(parent, old, next, { ...params, dryRun }));
    return afterWrite(r, (w) =>
      withViews(scope, [w.object], () => jsonResponse(200, scaleOf(scope, w.object), warningHeaders(w.warnings))),
    );
  }
  const request = { operation: 'UPDATE' as const, object: obj, old: present(scope, old), dryRun: params.dryRun };
  const written = admitWrite(scope, request, (o, dryRun, admitted) =>
    storedWrite(scope, old, dryRun, (dry) => updateObject(scope, old, o!, { ...params, dryRun: dry, ...admitted })),
  );
  return afterWrite(written, (r) => objectResponse(scope, r));
}

/**
 * The real server turns a body's uid into a storage precondition, checked before the resourceVersion
 * (and against the empty uid of an object not there yet), so a PUT cannot replace an object that was
 * deleted and created again under the same name.
 */
function checkUid(scope: Scope, sent: string | undefined, stored: string | undefined): void {
  if (sent && sent !== stored) {
    throw conflict(scope.strategy, scope.name, `Precondition failed: UID in precondition: ${sent}, UID in object meta: ${stored ?? ''}`);
  }
}
