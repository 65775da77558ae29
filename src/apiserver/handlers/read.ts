/**
 * GET of one object and LIST of a collection, with the resourceVersion semantics of
 * https://kubernetes.io/docs/reference/using-api/api-concepts/#semantics-for-get-and-list: unset =
 * consistent (latest), `0` = any (limit ignored), `N` = not older than N, `Exact` (or legacy
 * limit+RV) = the snapshot at N or 410; pagination from one snapshot whose revision every page
 * repeats, `remainingItemCount` when no selector is used, and 410 for an expired continue token.
 */
import type { KubeObject } from '../../meta/index.js';
import { storageKey, type Scope } from '../registry/index.js';
import { negotiateOutput } from '../wire/index.js';
import { renderList, renderObject, type ListMetaOut } from './render.js';
import { headerOf, type ApiResponse } from '../wire/index.js';
import { jsonResponse } from '../wire/index.js';
import { decodeContinue, encodeContinue } from '../storage/index.js';
import { badRequest, expired, notFound } from '../ground/index.js';
import { parseListOptions, tooLargeResourceVersion } from './list-options.js';
import { scaleOf } from './scale.js';
import { withViews } from './webhook-conversion.js';

export function getObject(scope: Scope): ApiResponse {
  const { ctx, strategy } = scope;
  const rvText = scope.query.get('resourceVersion') ?? '';
  if (/^\d+$/.test(rvText) && Number(rvText) > ctx.store.currentRv) throw tooLargeResourceVersion(Number(rvText), ctx.store.currentRv);
  const obj = ctx.store.get(strategy.storageId, storageKey(strategy, scope.namespace, scope.name));
  if (!obj) throw notFound(strategy, scope.name);
  if (scope.subresource === 'scale') return jsonResponse(200, scaleOf(scope, obj));
  const form = negotiateOutput(headerOf(scope.req, 'accept'), scope.query.get('includeObject'));
  return jsonResponse(200, renderObject(scope, form, obj));
}

const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export function listObjects(scope: Scope): ApiResponse | Promise<ApiResponse> {
  const { ctx, strategy } = scope;
  const store = ctx.store;
  const opts = parseListOptions(scope, false);
  const form = negotiateOutput(headerOf(scope.req, 'accept'), scope.query.get('includeObject'));
  let snapshotRv = store.currentRv;
  let start = '';
  let limit = opts.limit;
  if (opts.continueToken) {
    if (opts.rv !== undefined && opts.rv !== 0) throw badRequest('specifying resource version is not allowed when using continue');
    const t = decodeContinue(opts.continueToken);
    start = t.start;
    if (t.rv > 0) {
      if (t.rv < store.compactedRv) {
        const err = expired(EXPIRED_CONTINUE);
        err.status.metadata = { continue: encodeContinue({ rv: -1, start }) };
        throw err;
      }
      snapshotRv = t.rv;
    }
  } else if (opts.rv !== undefined && opts.rv > 0) {
    if (opts.rv > store.currentRv) throw tooLargeResourceVersion(opts.rv, store.currentRv);
    const exact = opts.match === 'Exact' || (opts.match === undefined && limit > 0);
    if (exact) {
      if (opts.rv < store.compactedRv) throw expired(`too old resource version: ${opts.rv} (${store.compactedRv})`);
      snapshotRv = opts.rv;
    }
  } else if (opts.rv === 0) {
    limit = 0;
  }
  const table: ReadonlyMap<string, KubeObject> =
    snapshotRv === store.currentRv ? store.current(strategy.storageId) : (store.snapshot(strategy.storageId, snapshotRv) ?? new Map());
  const prefix = strategy.namespaced && scope.namespace ? `${scope.namespace}/` : '';
  const keys: string[] = [];
  for (const k of table.keys()) if ((!prefix || k.startsWith(prefix)) && (!start || k >= start)) keys.push(k);
  keys.sort();
  const items: KubeObject[] = [];
  let i = 0;
  for (; i < keys.length; i++) {
    if (limit > 0 && items.length >= limit) break;
    const obj = table.get(keys[i]!)!;
    if (opts.filter(obj)) items.push(obj);
  }
  const meta: ListMetaOut = { resourceVersion: String(snapshotRv) };
  if (limit > 0 && i < keys.length) {
    meta.continue = encodeContinue({ rv: snapshotRv, start: `${keys[i - 1]!}\u0000` });
    if (!opts.hasSelector) meta.remainingItemCount = keys.length - i;
  }
  if (opts.shardSelector) meta.shardInfo = { selector: opts.shardSelector };
  return withViews(scope, items, () => jsonResponse(200, renderList(scope, form, items, meta)));
}
