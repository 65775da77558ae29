/**
 * POST on a collection: decode, check apiVersion/kind and namespace, then the shared create
 * pipeline. Answers 201 with the stored object (dry run: with an empty resourceVersion).
 */
import type { Scope } from '../context.js';
import { decodeObject } from '../decode.js';
import type { ApiResponse } from '../request.js';
import { checkTypeMeta, reconcileNamespace, writeParams } from './params.js';
import { objectResponse } from './respond.js';
import { createObject } from './write-pipeline.js';

export function createHandler(scope: Scope): ApiResponse {
  const params = writeParams(scope, 'CreateOptions');
  const obj = decodeObject(scope.req);
  checkTypeMeta(scope, obj);
  reconcileNamespace(scope, obj);
  return objectResponse(scope, createObject(scope, obj, params));
}
