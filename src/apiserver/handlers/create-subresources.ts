/**
 * Subresources that are only ever POSTed: `pods/eviction` (the Pod is deleted with the eviction's
 * delete options; PodDisruptionBudgets are not enforced, as nothing computes their status here) and
 * `serviceaccounts/token` (a TokenRequest answered with a token the server then authenticates as
 * that ServiceAccount while it lives). Both answer 201 like the real server.
 */
import { formatTimestamp, type KubeObject } from '../../meta/index.js';
import { storageKey, type Scope } from '../registry/index.js';
import { decodeObject } from '../wire/index.js';
import type { ApiResponse } from '../wire/index.js';
import { jsonResponse, statusResponse } from '../wire/index.js';
import { badRequest, fieldCause, invalid, notFound } from '../ground/index.js';
import { checkTypeMeta } from './params.js';
import { performDelete, type DeleteParams } from './write-pipeline.js';

type Handler = (scope: Scope) => ApiResponse;

function evict(scope: Scope): ApiResponse {
  const body = decodeObject(scope.req, scope.ctx.registry);
  const apiVersion = body.apiVersion === 'policy/v1beta1' ? 'policy/v1beta1' : 'policy/v1';
  checkTypeMeta(scope, body, { apiVersion, kind: 'Eviction' });
  if (body.metadata.name !== scope.name) throw badRequest(`name in URL does not match name in Eviction object`);
  const opts = (body.deleteOptions ?? {}) as {
    gracePeriodSeconds?: number;
    preconditions?: DeleteParams['preconditions'];
    dryRun?: string[];
  };
  const dryRun = scope.query.getAll('dryRun').length > 0 || (opts.dryRun ?? []).length > 0;
  const params: DeleteParams = { dryRun };
  if (typeof opts.gracePeriodSeconds === 'number') params.gracePeriodSeconds = opts.gracePeriodSeconds;
  if (opts.preconditions) params.preconditions = opts.preconditions;
  performDelete(scope.ctx, scope.strategy, storageKey(scope.strategy, scope.namespace, scope.name), params);
  return statusResponse({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
}

function requestToken(scope: Scope): ApiResponse {
  const { ctx, strategy } = scope;
  const account = ctx.store.get(strategy.storageId, storageKey(strategy, scope.namespace, scope.name));
  if (!account) throw notFound(strategy, scope.name);
  const body = decodeObject(scope.req, scope.ctx.registry);
  checkTypeMeta(scope, body, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest' });
  const spec = (body.spec ?? {}) as { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: unknown };
  const expirationSeconds = spec.expirationSeconds ?? 3600;
  // kube-apiserver validates a TokenRequest without naming it: the 422 says `TokenRequest… ""`.
  const tooShort = !Number.isInteger(expirationSeconds) || expirationSeconds < 600;
  if (tooShort || expirationSeconds > 2 ** 32) {
    const why = tooShort ? 'may not specify a duration less than 10 minutes' : 'may not specify a duration larger than 2^32 seconds';
    throw invalid('TokenRequest', 'authentication.k8s.io', '', [fieldCause.invalid('spec.expirationSeconds', expirationSeconds, why)]);
  }
  const now = ctx.clock.now();
  const audiences = spec.audiences ?? [];
  const { token, expiresAt } = ctx.tokens.issue({
    namespace: scope.namespace,
    name: scope.name,
    uid: account.metadata.uid!,
    expirationSeconds,
    audiences,
  });
  const out: KubeObject = {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name: scope.name, namespace: scope.namespace, creationTimestamp: formatTimestamp(now) },
    spec: { audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
    status: { token, expirationTimestamp: formatTimestamp(expiresAt) },
  };
  return jsonResponse(201, out);
}

const HANDLERS: Record<string, Handler> = { eviction: evict, token: requestToken };

/**
 * The handler of a POST-only subresource, when the kind serves it: its strategy lists the
 * subresource with the single verb `create` (Pods list `eviction`, ServiceAccounts `token`), so
 * which kinds have one is said once, in the registry, and discovery shows exactly that.
 */
export function createSubresource(scope: Pick<Scope, 'strategy' | 'version'>, subresource: string): Handler | undefined {
  const served = scope.strategy.served(scope.version).subresources.find((s) => s.name === subresource);
  return served?.verbs.length === 1 && served.verbs[0] === 'create' ? HANDLERS[subresource] : undefined;
}
