/**
 * List and watch options from the query string, validated like apimachinery's ListOptions
 * validation (422 `ListOptions.meta.k8s.io` for bad combinations, 400 for unparsable values), and the
 * object filter they describe: URL namespace, label selector, field selector over the strategy's
 * supported fields, and shard selector.
 */
import { parseFieldSelector, parseLabelSelector, SelectorParseError, type KubeObject } from '../../meta/index.js';
import type { Scope } from '../registry/index.js';
import { parseShardSelector, shardMatcher } from '../selectors/index.js';
import { badRequest, fieldCause, invalid, timeout, type ApiStatusError, type FieldCause } from '../ground/index.js';
import { queryBool } from './query-bool.js';
import { isOn } from '../versions/index.js';

export interface ListOptions {
  /** Parsed resourceVersion; undefined when unset or empty. */
  rv: number | undefined;
  rvText: string;
  match: 'Exact' | 'NotOlderThan' | undefined;
  limit: number;
  continueToken: string;
  sendInitialEvents: boolean | undefined;
  allowWatchBookmarks: boolean;
  timeoutSeconds: number | undefined;
  hasSelector: boolean;
  filter: (obj: KubeObject) => boolean;
  /** The `shardSelector` as sent ('' when unset); lists echo it in `metadata.shardInfo.selector`. */
  shardSelector: string;
}

const listInvalid = (causes: FieldCause[]): never => {
  throw invalid('ListOptions', 'meta.k8s.io', '', causes);
};

/** A selector as the server parses it: a bad one is a 400 carrying the parser's words, as kube-apiserver's. */
function parseSelector<T>(parse: (text: string) => T, text: string): T {
  try {
    return parse(text);
  } catch (e) {
    if (e instanceof SelectorParseError) throw badRequest(e.message);
    throw e;
  }
}

function parseRv(text: string): number | undefined {
  if (text === '') return undefined;
  if (!/^\d+$/.test(text)) throw badRequest(`invalid resource version: ${JSON.stringify(text)}`);
  return Number(text);
}

export function parseListOptions(scope: Scope, watch: boolean): ListOptions {
  const q = scope.query;
  const rvText = q.get('resourceVersion') ?? '';
  const rv = parseRv(rvText);
  const matchText = q.get('resourceVersionMatch') ?? '';
  const continueToken = q.get('continue') ?? '';
  const sendInitialEvents = queryBool(q, 'sendInitialEvents');
  const causes: FieldCause[] = [];
  if (matchText) {
    if (matchText !== 'Exact' && matchText !== 'NotOlderThan')
      causes.push(fieldCause.notSupported('resourceVersionMatch', matchText, ['Exact', 'NotOlderThan']));
    else if (!watch && !rvText)
      causes.push(fieldCause.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    else if (continueToken)
      causes.push(fieldCause.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    else if (matchText === 'Exact' && rv === 0)
      causes.push(fieldCause.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (watch) {
    if (sendInitialEvents !== undefined) {
      if (matchText !== 'NotOlderThan')
        causes.push(
          fieldCause.forbidden('resourceVersionMatch', "sendInitialEvents requires setting resourceVersionMatch to 'NotOlderThan'"),
        );
      if (!isOn('watchList', scope.ctx.kubernetesMinor))
        causes.push(
          fieldCause.forbidden(
            'sendInitialEvents',
            'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
          ),
        );
    } else if (matchText) {
      causes.push(
        fieldCause.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'),
      );
    }
  } else if (sendInitialEvents !== undefined) {
    causes.push(fieldCause.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (causes.length > 0) listInvalid(causes);
  const limitText = q.get('limit') ?? '';
  if (limitText && !/^-?\d+$/.test(limitText)) throw badRequest(`invalid limit: ${JSON.stringify(limitText)}`);
  const timeoutText = q.get('timeoutSeconds');
  if (timeoutText !== null && !/^\d+$/.test(timeoutText)) throw badRequest(`invalid timeoutSeconds: ${JSON.stringify(timeoutText)}`);

  const labels = parseSelector(parseLabelSelector, q.get('labelSelector') ?? '');
  const fields = parseSelector(parseFieldSelector, q.get('fieldSelector') ?? '');
  const name = scope.name;
  if (name) {
    const named = fields.requiresExactMatch('metadata.name');
    if (named !== undefined && named !== name) throw badRequest("fieldSelector metadata.name doesn't match requested name");
  }
  const { strategy, version } = scope;
  const probe: KubeObject = { metadata: {} };
  for (const t of fields.requirements) {
    if (strategy.fieldValue(probe, t.field, version) === null) {
      if (strategy.custom) {
        const allowed = strategy.namespaced ? '"metadata.name", "metadata.namespace"' : '"metadata.name"';
        throw badRequest(`"${t.field}" is not a known field selector: only ${allowed}`);
      }
      throw badRequest(`field label not supported: ${t.field}`);
    }
  }
  // Before 1.36 the parameter does not exist, and kube-apiserver ignores a parameter it does not know.
  const shardSelector = isOn('shardedListAndWatch', scope.ctx.kubernetesMinor) ? (q.get('shardSelector') ?? '') : '';
  const inShard = shardSelector ? shardMatcher(parseShardSelector(shardSelector)) : undefined;
  const ns = scope.namespace;
  const filter = (obj: KubeObject): boolean =>
    (!ns || obj.metadata.namespace === ns) &&
    (!name || obj.metadata.name === name) &&
    labels.matches(obj.metadata.labels) &&
    (fields.empty() || fields.matches((f) => strategy.fieldValue(obj, f, version) ?? undefined)) &&
    (inShard === undefined || inShard(obj));
  return {
    rv,
    rvText,
    match: (matchText === '' ? undefined : matchText) as ListOptions['match'],
    limit: limitText ? Math.max(0, Number(limitText)) : 0,
    continueToken,
    sendInitialEvents,
    allowWatchBookmarks: queryBool(q, 'allowWatchBookmarks') ?? false,
    // 0 asks for the server's default, as on the real server, not for a stream that ends at once.
    timeoutSeconds: timeoutText === null || Number(timeoutText) === 0 ? undefined : Number(timeoutText),
    hasSelector: !!q.get('labelSelector') || !!q.get('fieldSelector') || !!shardSelector,
    filter,
    shardSelector,
  };
}

/** 504 for a revision the server has not reached yet. */
export function tooLargeResourceVersion(requested: number, current: number): ApiStatusError {
  return timeout(`Too large resource version: ${requested}, current: ${current}`, 1, [
    { reason: 'ResourceVersionTooLarge', message: 'Too large resource version', field: '' },
  ]);
}
