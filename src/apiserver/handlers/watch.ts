/**
 * WATCH (`?watch=true` and the legacy `/watch/` paths): decides where the stream starts, queues the
 * initial lines (synthetic ADDEDs of a consistent snapshot, or history replayed after the requested
 * revision, then the `k8s.io/initial-events-end` bookmark when asked for) and registers the watcher
 * for live events in the same synchronous step, so nothing falls between replay and live delivery.
 * A revision older than the retained history yields one ERROR event with a 410 `Expired` Status,
 * then the stream ends.
 */
import { INITIAL_EVENTS_END_ANNOTATION } from '../../meta/internal.js';
import type { Scope } from '../registry/index.js';
import { negotiateOutput } from '../wire/index.js';
import { watchEncoder } from './render.js';
import { headerOf, type ApiResponse } from '../wire/index.js';
import { expired } from '../ground/index.js';
import { statusJson } from '../wire/index.js';
import { WatchHub } from '../watch-hub.js';
import { parseListOptions, tooLargeResourceVersion } from './list-options.js';
import { convertingEncoder } from './webhook-conversion.js';

export function watchObjects(scope: Scope): ApiResponse {
  const { ctx, strategy } = scope;
  const store = ctx.store;
  const opts = parseListOptions(scope, true);
  const form = negotiateOutput(headerOf(scope.req, 'accept'), scope.query.get('includeObject'));
  const encoder = convertingEncoder(scope, watchEncoder(scope, form));
  const watcher = ctx.hub.create({
    resource: strategy.storageId,
    filter: opts.filter,
    encoder,
    allowBookmarks: opts.allowWatchBookmarks,
    ...(opts.timeoutSeconds !== undefined ? { timeoutMs: opts.timeoutSeconds * 1000 } : {}),
  });
  const response: ApiResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: '', stream: watcher };
  const fromStart = opts.rv === undefined || opts.rv === 0;
  const initial = opts.sendInitialEvents ?? fromStart;
  if (opts.sendInitialEvents === true && opts.rv !== undefined && opts.rv > store.currentRv) {
    // The streaming list must start at a state at least as new as the request asks for; there is none yet.
    watcher.failWith(`{"type":"ERROR","object":${statusJson(tooLargeResourceVersion(opts.rv, store.currentRv).status)}}\n`);
    return response;
  }
  if (initial) {
    const table = store.current(strategy.storageId);
    const keys = [...table.keys()].sort();
    for (const k of keys) {
      const obj = table.get(k)!;
      if (opts.filter(obj)) watcher.pushInitial(watcher.renderEvent('ADDED', obj));
    }
    if (opts.allowWatchBookmarks) watcher.pushInitial(encoder.bookmark(store.currentRv, { [INITIAL_EVENTS_END_ANNOTATION]: 'true' }));
  } else if (!fromStart) {
    const since = store.eventsSince(strategy.storageId, opts.rv!);
    if (!since) {
      const status = expired(`too old resource version: ${opts.rv!} (${store.compactedRv})`).status;
      watcher.failWith(`{"type":"ERROR","object":${statusJson(status)}}\n`);
      return response;
    }
    for (const e of since) WatchHub.deliver(watcher, e, false);
  }
  ctx.hub.register(watcher);
  return response;
}
