/**
 * POST on a collection: decode, check apiVersion/kind and namespace, then the shared create
 * pipeline. Answers 201 with the stored object (dry run: with an empty resourceVersion). Review
 * kinds are answered without storing anything.
 */
import type { Scope } from '../registry/index.js';
import { decodeObject } from '../wire/index.js';
import type { ReviewStrategy } from '../registry/index.js';
import type { ApiResponse } from '../wire/index.js';
import { jsonResponse } from '../wire/index.js';
import { checkTypeMeta, reconcileNamespace, writeParams } from './params.js';
import { objectResponse } from './respond.js';
import { createObject } from './write-pipeline.js';
import { storedWrite } from './webhook-conversion.js';
import { admitWrite, afterWrite } from '../admission/index.js';

/** POST of a review kind: nothing is stored; the answer is the request with its status (201). */
export function reviewHandler(scope: Scope, strategy: ReviewStrategy): ApiResponse {
  // Typed clients (`kubectl auth can-i`) send reviews as protobuf, which decodeObject reads too.
  const obj = decodeObject(scope.req, scope.ctx.registry);
  checkTypeMeta(scope, obj);
  reconcileNamespace(scope, obj);
  return jsonResponse(201, strategy.review(obj, { ctx: scope.ctx, user: scope.req.user, namespace: scope.namespace }));
}

export function createHandler(scope: Scope): ApiResponse | Promise<ApiResponse> {
  const params = writeParams(scope, 'CreateOptions');
  const obj = decodeObject(scope.req, scope.ctx.registry);
  checkTypeMeta(scope, obj);
  reconcileNamespace(scope, obj);
  const written = admitWrite(scope, { operation: 'CREATE', object: obj, dryRun: params.dryRun }, (o, dryRun, admitted) =>
    storedWrite(scope, undefined, dryRun, (dry) => createObject(scope, o!, { ...params, dryRun: dry, ...admitted })),
  );
  return afterWrite(written, (r) => objectResponse(scope, r));
}
