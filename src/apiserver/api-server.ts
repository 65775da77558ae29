/**
 * The socket-free core: `createApiServer()` wires storage, registry, watch hub and lifecycles, and
 * returns `handle(request) → response`, a plain function over the internal request type. It maps a
 * route and method to a verb handler, and turns every failure into a Status response, so no input
 * can make it throw.
 */
import { noopLogger, realClock, type Clock, type Logger } from '../meta/index.js';
import { requireInt } from '../meta/internal.js';
import { defaultUid, type AdmissionAuditEvent, type Scope, type ServerContext, type TableConverter } from './registry/index.js';
import { CrdController, GarbageCollector, NamespaceLifecycle } from './controllers/index.js';
import {
  aggregatedDiscovery,
  legacyApiGroup,
  legacyApiGroupList,
  legacyApiVersions,
  legacyResourceList,
  versionInfo,
} from './discovery.js';
import { decodeObject } from './wire/index.js';
import { createHandler, reviewHandler } from './handlers/index.js';
import { createSubresource } from './handlers/index.js';
import { deleteCollectionHandler, deleteHandler, deleteParams } from './handlers/index.js';
import { patchHandler } from './handlers/index.js';
import { getObject, listObjects } from './handlers/index.js';
import { writeParams } from './handlers/index.js';
import { queryBool } from './handlers/index.js';
import { updateHandler } from './handlers/index.js';
import { watchObjects } from './handlers/index.js';
import { withStoredView } from './handlers/index.js';
import { createObject } from './handlers/index.js';
import { wantsAggregatedDiscovery } from './wire/index.js';
import { localApiServices } from './registry/index.js';
import { BUILTIN_KINDS, type BuiltinKind } from './registry/index.js';
import { ReviewStrategy } from './registry/index.js';
import { OpenApiRoutes } from './openapi-routes.js';
import { Registry } from './registry/index.js';
import type { Strategy } from './registry/index.js';
import { headerOf, type ApiRequest, type ApiResponse } from './wire/index.js';
import { errorResponse, textResponse } from './wire/index.js';
import { route } from './wire/index.js';
import { ApiStatusError, methodNotAllowed } from './ground/index.js';
import { Store } from './storage/index.js';
import { toTable } from './table/index.js';
import { WatchHub } from './watch-hub.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './authorization/index.js';
import { ClusterRoleAggregation } from './controllers/index.js';
import { RbacAuthorizer } from './authorization/index.js';
import { RequestAuthorization } from './authorization/index.js';
import { RequestRecorder, type RecordedRequest } from './authorization/index.js';
import { adminTokenMatcher } from './authentication/index.js';
import { ServiceAccountTokens, type IssuedToken } from './authentication/index.js';
import { ADMIN_USER, NEWEST_MINOR, parseKubernetesVersion, type UserInfo } from './ground/index.js';
import { notFound } from './ground/index.js';

/** Options of `createApiServer`; every one has a default, so `{}` gives a server that behaves like a fresh envtest cluster. @extension */
export interface ApiServerOptions {
  clock?: Clock;
  /** Events kept for watch replay, Exact reads and continue tokens (default 10 000). */
  historySize?: number;
  /** Period of watch bookmarks (default 60 000 ms, like kube-apiserver). */
  bookmarkIntervalMs?: number;
  /** Live events queued for a slow watcher before it is closed (default 1 000). */
  watchBufferSize?: number;
  logger?: Logger;
  /** Delete dependents whose owners are gone, and honour Foreground/Orphan (default false, like envtest). */
  garbageCollection?: boolean;
  /** Renders Tables (default: the built-in printers and CRD printer columns). */
  table?: TableConverter;
  /**
   * Receives the audit annotations ValidatingAdmissionPolicies record for a write (their
   * auditAnnotations, and the `Audit` action's validation failures), as a request's audit event would carry them.
   */
  onAdmissionAudit?: (event: AdmissionAuditEvent) => void;
  /** The admin's bearer token, so TokenReview names the admin for it (`startApiServer` passes its own). */
  adminToken?: string;
  /** Built-in kinds to serve besides Converge's own (`BUILTIN_KINDS`), registered after them: a kind's record, in its test. */
  extraKinds?: readonly BuiltinKind[];
  /** The Kubernetes version to behave as, `1.31` to the newest (default the newest). */
  kubernetesVersion?: string;
}

/** A ServiceAccount to mint a token for, and for how long (default one hour, as TokenRequest). */
export interface ServiceAccountTokenOptions {
  namespace: string;
  name: string;
  expirationSeconds?: number;
  audiences?: string[];
}

/**
 * The socket-free server core: `handle` answers one request as kube-apiserver would, trusting the
 * caller (authentication is the HTTP adapter's job), and answers failures as Status responses.
 * @extension
 */
export interface ApiServer {
  handle(req: ApiRequest): Promise<ApiResponse>;
  /** Drops all event history: reads and watches from older revisions then get 410 Expired. */
  compact(): void;
  /** Closes every watch and stops timers. */
  stop(): void;
  /** `host:port` advertised in `/api` (set by the HTTP adapter once listening). */
  serverAddress: string;
  /** The user a bearer token (the admin's, or one minted for a ServiceAccount) authenticates as; undefined = 401. */
  authenticateToken(token: string): UserInfo | undefined;
  /** Mints a token for an existing ServiceAccount, as its `token` subresource does (404 Status error when it does not exist). */
  issueServiceAccountToken(options: ServiceAccountTokenOptions): IssuedToken;
  /**
   * The distinct requests a user has made over the socket, in authorization terms, first seen first
   * (every user outside `system:masters` is recorded).
   */
  recording(username: string): RecordedRequest[];
  clearRecording(username: string): void;
}

const BOOTSTRAP_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** A scope for writes the server makes itself (bootstrap, controllers). */
export function internalScope(ctx: ServerContext, strategy: Strategy, namespace = '', name = ''): Scope {
  const version = strategy.versions.find((v) => v.storage)?.name ?? strategy.versions[0]!.name;
  return {
    ctx,
    req: { method: 'POST', path: '', headers: { 'user-agent': 'converge-apiserver' } },
    query: new URLSearchParams(),
    strategy,
    version,
    namespace,
    name,
    subresource: '',
  };
}

const PARAMS = { dryRun: false, manager: 'converge-apiserver', fieldValidation: 'Ignore' as const };

/** @extension */
export function createApiServer(options: ApiServerOptions = {}): ApiServer {
  const clock = options.clock ?? realClock;
  const log = options.logger ?? noopLogger;
  const historySize = options.historySize ?? 10_000;
  const bookmarkIntervalMs = options.bookmarkIntervalMs ?? 60_000;
  const bufferSize = options.watchBufferSize ?? 1_000;
  requireInt('historySize', historySize, { min: 1 });
  requireInt('bookmarkIntervalMs', bookmarkIntervalMs, { min: 1 });
  requireInt('watchBufferSize', bufferSize, { min: 1 });
  const kubernetesMinor = options.kubernetesVersion === undefined ? NEWEST_MINOR : parseKubernetesVersion(options.kubernetesVersion);
  const store = new Store({ historySize });
  const registry = new Registry();
  const hub = new WatchHub({ store, clock, bookmarkIntervalMs, bufferSize });
  const tokens = new ServiceAccountTokens(clock, (ns, name) => store.get('/serviceaccounts', `${ns}/${name}`)?.metadata.uid);
  const isAdminToken = options.adminToken !== undefined ? adminTokenMatcher(options.adminToken) : () => false;
  const authorizer = new RbacAuthorizer(store);
  const recorder = new RequestRecorder();
  const authorization = new RequestAuthorization(authorizer, recorder);
  const ctx: ServerContext = {
    store,
    registry,
    hub,
    clock,
    kubernetesMinor,
    newUid: defaultUid,
    table: options.table ?? ((objects, resource, opts) => ({ ...toTable(objects, resource, opts) })),
    onAdmissionAudit: options.onAdmissionAudit,
    tokens,
    authenticateToken: (token) => (isAdminToken(token) ? ADMIN_USER : tokens.authenticate(token)),
    authorizer,
    authorizeAdmission: (user, a) => authorization.authorizeCheck(user, a),
    defer(task) {
      queueMicrotask(() => {
        try {
          task();
        } catch (err) {
          log.error({ err: String(err) }, 'apiserver background task failed');
        }
      });
    },
  };
  const storeReader = { list: (resource: string) => store.current(resource).values() };
  for (const kind of BUILTIN_KINDS) registry.addKind(kind, storeReader, kubernetesMinor);
  for (const kind of options.extraKinds ?? []) registry.addKind(kind, storeReader, kubernetesMinor);
  const namespaces = new NamespaceLifecycle(ctx, log);
  // The controllers subscribe to the store's events and live as long as it does.
  new CrdController(ctx, log);
  new ClusterRoleAggregation(ctx, log);
  if (options.garbageCollection === true) new GarbageCollector(ctx, log);
  const openapi = new OpenApiRoutes(registry);
  const nsStrategy = registry.lookup('', 'v1', 'namespaces')!.strategy;
  for (const name of BOOTSTRAP_NAMESPACES)
    createObject(internalScope(ctx, nsStrategy), { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, PARAMS);
  const svcStrategy = registry.lookup('', 'v1', 'services')!.strategy;
  createObject(
    internalScope(ctx, svcStrategy, 'default'),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { clusterIP: '10.0.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }] },
    },
    PARAMS,
  );
  for (const [plural, objects] of [
    ['clusterroles', bootstrapClusterRoles()],
    ['clusterrolebindings', bootstrapClusterRoleBindings()],
  ] as const) {
    const strategy = registry.lookup('rbac.authorization.k8s.io', 'v1', plural)!.strategy;
    for (const o of objects) createObject(internalScope(ctx, strategy), o, PARAMS);
  }
  const apiServiceStrategy = registry.lookup('apiregistration.k8s.io', 'v1', 'apiservices')!.strategy;
  for (const s of localApiServices(registry.groups())) createObject(internalScope(ctx, apiServiceStrategy), s, PARAMS);

  const server: ApiServer = {
    serverAddress: '127.0.0.1:6443',
    async handle(req) {
      try {
        // The user a request acts as replaces the authenticated one, for the reviews that name it.
        if (req.user) {
          const acting = authorization.check(req, req.user);
          if (acting !== req.user) req = { ...req, user: acting };
        }
        return await dispatch(req);
      } catch (err) {
        // Status errors are answers; anything else is a bug in the server, answered 500 and logged.
        if (!(err instanceof ApiStatusError))
          log.error({ method: req.method, path: req.path, err: String((err as Error)?.stack ?? err) }, 'apiserver request failed');
        return errorResponse(err);
      }
    },
    compact: () => store.compact(),
    stop: () => hub.stop(),
    authenticateToken: (token) => ctx.authenticateToken(token),
    issueServiceAccountToken({ namespace, name, expirationSeconds = 3600, audiences }) {
      const sa = store.get('/serviceaccounts', `${namespace}/${name}`);
      if (!sa) throw notFound({ group: '', plural: 'serviceaccounts' }, name);
      return tokens.issue({ namespace, name, uid: sa.metadata.uid!, expirationSeconds, ...(audiences ? { audiences } : {}) });
    },
    recording: (username) => recorder.recording(username),
    clearRecording: (username) => recorder.clear(username),
  };

  function dispatch(req: ApiRequest): ApiResponse | Promise<ApiResponse> {
    const q = req.path.indexOf('?');
    const path = q === -1 ? req.path : req.path.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : req.path.slice(q + 1));
    const method = req.method.toUpperCase();
    const r = route(path, (g, v, res) => registry.lookup(g, v, res) !== undefined);
    const accept = headerOf(req, 'accept');
    const get = method === 'GET' || method === 'HEAD';
    switch (r.kind) {
      case 'health':
        return textResponse(200, 'ok');
      case 'version':
        return versionInfo(kubernetesMinor);
      case 'api':
        if (!get) break;
        return wantsAggregatedDiscovery(accept) ? aggregatedDiscovery(registry, true) : legacyApiVersions(server.serverAddress);
      case 'apis':
        if (!get) break;
        return wantsAggregatedDiscovery(accept) ? aggregatedDiscovery(registry, false) : legacyApiGroupList(registry);
      case 'group':
        return (get && legacyApiGroup(registry, r.group)) || notFoundPage();
      case 'groupVersion':
        return (get && legacyResourceList(registry, r.group, r.version)) || notFoundPage();
      case 'openapi':
        return (get && openapi.serve(r.rest)) || notFoundPage();
      case 'resource': {
        const found = registry.lookup(r.group, r.version, r.resource);
        if (!found || r.extra) return notFoundPage();
        const { strategy, version } = found;
        if (r.namespace && !strategy.namespaced) return notFoundPage();
        if (r.subresource && !hasSubresource(strategy, version, r.subresource)) return notFoundPage();
        const scope: Scope = {
          ctx,
          req,
          query,
          strategy,
          version,
          namespace: r.namespace,
          name: r.name,
          subresource: r.subresource,
          views: new Map(),
        };
        // An item request reads its stored object synchronously; a conversion webhook answers first.
        return r.name
          ? withStoredView(scope, () => resourceVerb(scope, method, r.legacyWatch))
          : resourceVerb(scope, method, r.legacyWatch);
      }
      case 'notFound':
        return notFoundPage();
    }
    return notFoundPage();
  }

  function resourceVerb(scope: Scope, method: string, legacyWatch: boolean): ApiResponse | Promise<ApiResponse> {
    const { strategy, name, subresource, req } = scope;
    const watch = legacyWatch || (queryBool(scope.query, 'watch') ?? false);
    const clusterWideNamespaced = strategy.namespaced && !scope.namespace;
    if (strategy instanceof ReviewStrategy) {
      if (method !== 'POST' || name || clusterWideNamespaced)
        throw methodNotAllowed(method === 'POST' ? 'create' : method.toLowerCase(), strategy);
      return reviewHandler(scope, strategy);
    }
    if (!name) {
      if (method === 'GET') return watch ? watchObjects(scope) : listObjects(scope);
      if (clusterWideNamespaced) throw methodNotAllowed(method === 'POST' ? 'create' : method.toLowerCase(), strategy);
      if (method === 'POST') return createHandler(scope);
      if (method === 'DELETE') return deleteCollectionHandler(scope);
      throw methodNotAllowed(method.toLowerCase(), strategy);
    }
    if (clusterWideNamespaced) return notFoundPage();
    if (legacyWatch) {
      if (method !== 'GET' || subresource) return notFoundPage();
      return watchObjects(scope);
    }
    const postOnly = subresource ? createSubresource(scope, subresource) : undefined;
    if (postOnly) {
      if (method === 'POST') return postOnly(scope);
      throw methodNotAllowed(method.toLowerCase(), strategy);
    }
    switch (method) {
      case 'GET':
        if (subresource === 'finalize') break;
        return watch && !subresource ? watchObjects(scope) : getObject(scope);
      case 'PUT':
        if (subresource === 'finalize')
          return namespaces.finalize(scope, decodeObject(req, ctx.registry), writeParams(scope, 'UpdateOptions').dryRun);
        return updateHandler(scope);
      case 'PATCH':
        if (subresource === 'finalize') break;
        return patchHandler(scope);
      case 'DELETE':
        if (subresource) break;
        if (strategy.kind === 'Namespace' && strategy.group === '') return namespaces.deleteNamespace(scope, deleteParams(scope).dryRun);
        return deleteHandler(scope);
    }
    throw methodNotAllowed(method.toLowerCase(), strategy);
  }

  return server;
}

/** Subresources are served exactly as discovery lists them, so the two cannot disagree. */
function hasSubresource(strategy: Strategy, version: string, sub: string): boolean {
  return strategy.served(version).subresources.some((s) => s.name === sub);
}

function notFoundPage(): ApiResponse {
  return textResponse(404, '404 page not found\n');
}
