/**
 * The review kinds (authorization.k8s.io access and rules reviews, authentication.k8s.io self and
 * token reviews): create-only, never stored; the answer is the request with a `status` filled in,
 * computed by the server's own authenticator and RBAC authorizer, so `kubectl auth can-i` (with or
 * without `--as`) and `kubectl auth whoami` tell what the server will really do. A self review
 * answers for the requester; a request from the trusted in-process caller counts as the admin.
 */
import type { KubeObject } from '../../meta/index.js';
import type { ServerContext } from './context.js';
import { ADMIN_USER, type UserInfo } from '../ground/index.js';
import type { PolicyRule } from '../authorization/index.js';
import type { RequestAttributes } from '../ground/index.js';
import type { ServedResource } from '../served-resource.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

/** What a review's answer may use: the server, the requester, and the namespace of a local review. */
export interface ReviewContext {
  ctx: ServerContext;
  user: UserInfo;
  namespace: string;
}

export class ReviewStrategy extends Strategy {
  readonly versions: VersionSpec[];
  override readonly allowDeleteCollection = false;

  constructor(
    readonly group: string,
    readonly kind: string,
    readonly plural: string,
    readonly namespaced: boolean,
    readonly answer: (request: KubeObject, rc: ReviewContext) => Record<string, unknown>,
  ) {
    super();
    this.versions = [builtinVersion('v1')];
  }

  /** Review kinds only accept `create`. */
  override served(version: string): ServedResource {
    return { ...super.served(version), verbs: ['create'] };
  }

  /** The response: the request, with the server-computed status. */
  review(request: KubeObject, rc: Omit<ReviewContext, 'user'> & { user: UserInfo | undefined }): KubeObject {
    return {
      ...request,
      metadata: { ...request.metadata, creationTimestamp: null } as unknown as KubeObject['metadata'],
      status: this.answer(request, { ...rc, user: rc.user ?? ADMIN_USER }),
    };
  }
}

interface AccessSpec {
  resourceAttributes?: {
    namespace?: string;
    verb?: string;
    group?: string;
    version?: string;
    resource?: string;
    subresource?: string;
    name?: string;
  };
  nonResourceAttributes?: { path?: string; verb?: string };
  user?: string;
  groups?: string[];
  uid?: string;
}

function attributesOf(spec: AccessSpec): RequestAttributes {
  const r = spec.resourceAttributes;
  if (r)
    return {
      kind: 'resource',
      verb: r.verb ?? '',
      apiGroup: r.group ?? '',
      apiVersion: r.version ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      namespace: r.namespace ?? '',
      name: r.name ?? '',
    };
  const n = spec.nonResourceAttributes ?? {};
  return { kind: 'nonResource', verb: n.verb ?? '', path: n.path ?? '' };
}

function access(ctx: ServerContext, user: UserInfo, spec: AccessSpec): Record<string, unknown> {
  const d = ctx.authorizer.authorize(user, attributesOf(spec));
  return { allowed: d.allowed, ...(d.reason ? { reason: d.reason } : {}) };
}

const specOf = (req: KubeObject): AccessSpec => (req.spec ?? {}) as AccessSpec;

/** A SubjectAccessReview's subject: the user and groups it names (no group is added, as on a cluster). */
const subjectOf = (spec: AccessSpec): UserInfo => ({ username: spec.user ?? '', groups: spec.groups ?? [] });

function rulesReview(ctx: ServerContext, user: UserInfo, namespace: string): Record<string, unknown> {
  const { rules, errors } = ctx.authorizer.rulesFor(user, namespace);
  const resourceRules = rules
    .filter((r) => (r.resources ?? []).length > 0)
    .map((r: PolicyRule) => ({
      verbs: r.verbs ?? [],
      ...(r.apiGroups ? { apiGroups: r.apiGroups } : {}),
      resources: r.resources,
      ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}),
    }));
  const nonResourceRules = rules
    .filter((r) => (r.nonResourceURLs ?? []).length > 0)
    .map((r) => ({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs }));
  return {
    resourceRules,
    nonResourceRules,
    incomplete: errors.length > 0,
    ...(errors.length > 0 ? { evaluationError: errors.length === 1 ? errors[0] : `[${errors.join(', ')}]` } : {}),
  };
}

/**
 * The record of a review kind; `message` is its protobuf message where typed clients send it that way
 * (`kubectl auth can-i` and `whoami` do), null where the server takes JSON only.
 */
const review = (message: string | null, ...args: ConstructorParameters<typeof ReviewStrategy>): BuiltinKind => ({
  strategy: () => new ReviewStrategy(...args),
  resource: null,
  protobuf: message === null ? null : { message },
  bodies: [],
});

/** The review kinds, in the order they are registered. */
export const REVIEW_KINDS: readonly BuiltinKind[] = [
  review(
    'SelfSubjectAccessReview',
    'authorization.k8s.io',
    'SelfSubjectAccessReview',
    'selfsubjectaccessreviews',
    false,
    (req, { ctx, user }) => access(ctx, user, specOf(req)),
  ),
  review('SubjectAccessReview', 'authorization.k8s.io', 'SubjectAccessReview', 'subjectaccessreviews', false, (req, { ctx }) =>
    access(ctx, subjectOf(specOf(req)), specOf(req)),
  ),
  review(
    'LocalSubjectAccessReview',
    'authorization.k8s.io',
    'LocalSubjectAccessReview',
    'localsubjectaccessreviews',
    true,
    (req, { ctx, namespace }) => {
      const spec = specOf(req);
      const resourceAttributes = { ...spec.resourceAttributes, namespace: spec.resourceAttributes?.namespace || namespace };
      return access(ctx, subjectOf(spec), { ...spec, resourceAttributes });
    },
  ),
  review(
    'SelfSubjectRulesReview',
    'authorization.k8s.io',
    'SelfSubjectRulesReview',
    'selfsubjectrulesreviews',
    false,
    (req, { ctx, user }) => rulesReview(ctx, user, String((req.spec as { namespace?: unknown } | undefined)?.namespace ?? '')),
  ),
  review('SelfSubjectReview', 'authentication.k8s.io', 'SelfSubjectReview', 'selfsubjectreviews', false, (_req, { user }) => ({
    userInfo: { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: [...user.groups] },
  })),
  review(null, 'authentication.k8s.io', 'TokenReview', 'tokenreviews', false, (req, { ctx }) => {
    const spec = (req.spec ?? {}) as { token?: unknown; audiences?: string[] };
    const user = typeof spec.token === 'string' ? ctx.authenticateToken(spec.token) : undefined;
    if (!user) return { user: {}, error: '[invalid bearer token, service account token has been invalidated]' };
    return {
      authenticated: true,
      user: { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: [...user.groups] },
      audiences: spec.audiences ?? [],
    };
  }),
];
