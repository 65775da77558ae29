/**
 * DELETE of one object and of a collection. Options come from the body (`DeleteOptions`) and the
 * query; the response is the deleted object or a Success Status for an immediate delete (per type,
 * as kube-apiserver: Pods and ServiceAccounts return the object, ConfigMaps, Secrets and custom
 * resources a Status), the updated object when finalizers defer it, and the list of matched objects
 * for a collection. Namespaces have their own lifecycle (`namespace-lifecycle.ts`).
 */
import type { KubeObject } from '../../meta/index.js';
import { present, storageKey, type Scope } from '../registry/index.js';
import { bodyText, mediaType, parseDocument } from '../wire/index.js';
import { negotiateOutput } from '../wire/index.js';
import { decodeProtobufDeleteOptions, PROTOBUF_MEDIA_TYPE } from '../protobuf/index.js';
import { renderList, renderObject } from './render.js';
import { headerOf, type ApiResponse } from '../wire/index.js';
import { jsonResponse } from '../wire/index.js';
import { statusJson } from '../wire/index.js';
import { badRequest, fieldCause, invalid, methodNotAllowed, successStatus } from '../ground/index.js';
import { parseListOptions } from './list-options.js';
import { writeParams } from './params.js';
import { queryBool } from './query-bool.js';
import { warningHeaders } from './respond.js';
import { performDelete, type DeleteParams } from './write-pipeline.js';
import { admitWrite, afterWrite } from '../admission/index.js';
import { withViews } from './webhook-conversion.js';

const POLICIES = ['Orphan', 'Background', 'Foreground'];

export function deleteParams(scope: Scope): DeleteParams {
  const text = bodyText(scope.req);
  const body = (
    mediaType(scope.req) === PROTOBUF_MEDIA_TYPE
      ? decodeProtobufDeleteOptions(scope.req.body ?? '')
      : text.trim()
        ? parseDocument(text, false, 'DeleteOptions')
        : {}
  ) as Record<string, unknown> | null;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('DeleteOptions must be a JSON object');
  const q = scope.query;
  const { dryRun } = writeParams(scope, 'DeleteOptions');
  const bodyDryRun = Array.isArray(body.dryRun) && body.dryRun.length > 0;
  const policy = (body.propagationPolicy as string | undefined) ?? q.get('propagationPolicy') ?? undefined;
  const bodyOrphan = body.orphanDependents ?? undefined;
  const orphan = bodyOrphan === undefined ? queryBool(q, 'orphanDependents') : bodyOrphan === true;
  if (policy !== undefined && !POLICIES.includes(policy)) {
    throw invalid('DeleteOptions', 'meta.k8s.io', '', [fieldCause.notSupported('propagationPolicy', policy, POLICIES)]);
  }
  if (policy !== undefined && orphan !== undefined) {
    throw invalid('DeleteOptions', 'meta.k8s.io', '', [
      fieldCause.invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'),
    ]);
  }
  const graceText = body.gracePeriodSeconds ?? q.get('gracePeriodSeconds') ?? undefined;
  const p: DeleteParams = { dryRun: dryRun || bodyDryRun };
  const effective = policy ?? (orphan === undefined ? undefined : orphan ? 'Orphan' : 'Background');
  if (effective) p.propagationPolicy = effective as NonNullable<DeleteParams['propagationPolicy']>;
  if (orphan === false) p.legacyCascade = true;
  if (graceText !== undefined) p.gracePeriodSeconds = Number(graceText);
  const pre = body.preconditions as { uid?: string; resourceVersion?: string } | undefined;
  if (pre && typeof pre === 'object') p.preconditions = pre;
  return p;
}

export function deleteHandler(scope: Scope): ApiResponse | Promise<ApiResponse> {
  const { strategy, ctx } = scope;
  const p = deleteParams(scope);
  const key = storageKey(strategy, scope.namespace, scope.name);
  const stored = ctx.store.get(strategy.storageId, key);
  const request = { operation: 'DELETE' as const, ...(stored ? { old: present(scope, stored) } : {}), dryRun: p.dryRun };
  const written = admitWrite(scope, request, (_o, dryRun) => ({
    ...performDelete(ctx, strategy, key, { ...p, dryRun }),
    warnings: [] as string[],
  }));
  return afterWrite(written, (outcome) =>
    withViews(scope, [outcome.object], () => {
      const form = negotiateOutput(headerOf(scope.req, 'accept'), scope.query.get('includeObject'));
      const headers = warningHeaders(outcome.warnings);
      // The one 202 of the API: kept for clients of the legacy cascade flag, as the real server keeps it.
      if (outcome.kind === 'pending') return jsonResponse(p.legacyCascade ? 202 : 200, renderObject(scope, form, outcome.object), headers);
      if (strategy.returnDeletedObject) return jsonResponse(200, renderObject(scope, form, outcome.object), headers);
      return jsonResponse(200, statusJson(successStatus(strategy, scope.name, outcome.object.metadata.uid)), headers);
    }),
  );
}

export function deleteCollectionHandler(scope: Scope): ApiResponse | Promise<ApiResponse> {
  const { strategy, ctx } = scope;
  if (!strategy.allowDeleteCollection) throw methodNotAllowed('deletecollection', strategy);
  const p = deleteParams(scope);
  const opts = parseListOptions(scope, false);
  const table = ctx.store.current(strategy.storageId);
  const prefix = strategy.namespaced && scope.namespace ? `${scope.namespace}/` : '';
  const keys = [...table.keys()].filter((k) => !prefix || k.startsWith(prefix)).sort();
  const deleted: KubeObject[] = [];
  for (const k of keys) {
    const obj = table.get(k);
    if (!obj || !opts.filter(obj)) continue;
    deleted.push(performDelete(ctx, strategy, k, p).object);
    if (opts.limit > 0 && deleted.length >= opts.limit) break;
  }
  const form = negotiateOutput(headerOf(scope.req, 'accept'), scope.query.get('includeObject'));
  const rv = String(ctx.store.currentRv);
  return withViews(scope, deleted, () => jsonResponse(200, renderList(scope, form, deleted, { resourceVersion: rv })));
}
