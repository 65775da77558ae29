/**
 * CRD conversion through a webhook around the synchronous handlers, in kube-apiserver's order:
 * stored objects are converted to the request's version before the handler reads them (one review
 * per request: a list is one review), the handler and the write pipeline run in the request's
 * version as they do for every kind, the object to store is converted to the storage version before
 * the commit, and what was stored is converted back for the response. Built-ins and CRDs with
 * conversion `None` never pass through here: every function runs its continuation synchronously
 * when there is nothing for a webhook to convert.
 * Invariant: a commit happens in one synchronous step after the last await and refuses (409) a write
 * whose stored object changed while the webhook ran, so no change is lost.
 */
import type { KubeObject } from '../../meta/index.js';
import { storageKey, type Scope } from '../registry/index.js';
import { serviceResolver } from '../admission/index.js';
import { convertThroughWebhook, type ConversionDeps } from '../conversion/index.js';
import { alreadyExists, ApiStatusError, internalError, modifiedConflict } from '../ground/index.js';
import { statusJson } from '../wire/index.js';
import type { WatchEncoder } from '../watch-hub.js';
import { finishesDeletion, type WriteResult } from './write-pipeline.js';

const deps = (scope: Scope): ConversionDeps => ({
  clock: scope.ctx.clock,
  newUid: () => scope.ctx.newUid(),
  resolveService: serviceResolver(scope.ctx),
});

/** Objects of `objects` a webhook must convert before this request can see them. */
function unconverted(scope: Scope, objects: readonly KubeObject[]): KubeObject[] {
  if (!scope.strategy.conversionWebhook) return [];
  const apiVersion = scope.strategy.apiVersion(scope.version);
  return objects.filter((o) => o.apiVersion !== apiVersion && !scope.views?.has(o));
}

/** Runs `then` once every object of `objects` has its view in the request's version. */
export function withViews<T>(scope: Scope, objects: readonly KubeObject[], then: () => T | Promise<T>): T | Promise<T> {
  const pending = unconverted(scope, objects);
  if (pending.length === 0) return then();
  return (async () => {
    const converted = await convertThroughWebhook(scope.strategy, pending, scope.version, deps(scope));
    const views = (scope.views ??= new Map());
    pending.forEach((o, i) => views.set(o, converted[i]!));
    return then();
  })();
}

/**
 * Runs an item handler once the stored object it will read has its view; when the object changed
 * while the webhook ran, the new one is converted, so the handler (synchronous from here) never
 * meets an object it cannot see.
 */
export function withStoredView<T>(scope: Scope, run: () => T | Promise<T>): T | Promise<T> {
  const { strategy, ctx } = scope;
  if (!strategy.conversionWebhook) return run();
  const key = storageKey(strategy, scope.namespace, scope.name);
  const read = (): KubeObject[] => {
    const o = ctx.store.get(strategy.storageId, key);
    return o ? [o] : [];
  };
  const attempt = (): T | Promise<T> => {
    const before = read();
    return withViews(scope, before, () => (read()[0] === before[0] ? run() : attempt()));
  };
  return attempt();
}

/**
 * One write of the pipeline (`run(dryRun)`, computed from the stored `prev`, absent for a create)
 * with the result stored in the storage version: where a webhook converts, the pipeline runs as a
 * dry run in the request's version, its result is converted, then committed.
 */
export function storedWrite(
  scope: Scope,
  prev: KubeObject | undefined,
  dryRun: boolean,
  run: (dryRun: boolean) => WriteResult,
): WriteResult | Promise<WriteResult> {
  const { strategy, ctx } = scope;
  if (!strategy.conversionWebhook || scope.version === strategy.storageVersion) return run(dryRun);
  const preview = run(true);
  if (dryRun || preview.object === prev) return preview;
  return (async () => {
    const [stored] = await convertThroughWebhook(strategy, [preview.object], strategy.storageVersion, deps(scope));
    const m = stored!.metadata;
    const key = storageKey(strategy, m.namespace ?? '', m.name!);
    const now = ctx.store.get(strategy.storageId, key);
    if (!prev) {
      if (now) throw alreadyExists(strategy, m.name!);
      return { ...preview, object: ctx.store.create(strategy.storageId, key, stored!) };
    }
    if (now !== prev) throw modifiedConflict(strategy, m.name!);
    if (finishesDeletion(strategy, stored!)) {
      ctx.store.delete(strategy.storageId, key, stored!);
      return { ...preview, object: stored! };
    }
    return { ...preview, object: ctx.store.update(strategy.storageId, key, stored!) };
  })();
}

/**
 * A watch encoder whose events the CRD's webhook converts first, one review per event; a failed
 * conversion ends the watch with an ERROR event carrying the 500, as the real server's watch ends.
 */
export function convertingEncoder(scope: Scope, encoder: WatchEncoder): WatchEncoder {
  if (!scope.strategy.conversionWebhook) return encoder;
  return {
    ...encoder,
    render(type, obj, first) {
      if (unconverted(scope, [obj]).length === 0) return encoder.render(type, obj, first);
      return convertThroughWebhook(scope.strategy, [obj], scope.version, deps(scope)).then(([view]) => encoder.render(type, view!, first));
    },
    failure(err) {
      const status = err instanceof ApiStatusError ? internalError(err.status.message ?? '').status : internalError(String(err)).status;
      return `{"type":"ERROR","object":${statusJson(status)}}\n`;
    },
  };
}
