/**
 * The review kinds (authorization.k8s.io access and rules reviews, authentication.k8s.io self and
 * token reviews): create-only, never stored; the answer is the request with a `status` filled in.
 * This server has no authentication or authorization, so every subject may do everything, and a
 * self review names the local admin — which is what `kubectl auth can-i` and `kubectl auth whoami`
 * then report.
 */
import type { KubeObject } from '../../meta/index.js';
import type { ServedResource } from '../served-resource.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';

const ALLOWED = { allowed: true, reason: 'the converge local API server authorizes every request' };
const ADMIN = { username: 'converge-admin', groups: ['system:masters', 'system:authenticated'] };

export class ReviewStrategy extends Strategy {
  readonly versions: VersionSpec[];
  override readonly allowDeleteCollection = false;

  constructor(
    readonly group: string,
    readonly kind: string,
    readonly plural: string,
    readonly namespaced: boolean,
    readonly answer: (request: KubeObject) => Record<string, unknown>,
  ) {
    super();
    this.versions = [builtinVersion('v1')];
  }

  /** Review kinds only accept `create`. */
  override served(version: string): ServedResource {
    return { ...super.served(version), verbs: ['create'] };
  }

  /** The response: the request, with the server-computed status. */
  review(request: KubeObject): KubeObject {
    return {
      ...request,
      metadata: { ...request.metadata, creationTimestamp: null } as unknown as KubeObject['metadata'],
      status: this.answer(request),
    };
  }
}

const tokenSubject = (token: unknown): string => {
  try {
    const claims = JSON.parse(Buffer.from(String(token).split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' ? claims.sub : ADMIN.username;
  } catch (e) {
    // Tokens are never verified here: one that is not a JWT with a JSON payload names the admin, like any other.
    if (!(e instanceof SyntaxError)) throw e;
    return ADMIN.username;
  }
};

export const reviewStrategies = (): ReviewStrategy[] => [
  new ReviewStrategy('authorization.k8s.io', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', false, () => ALLOWED),
  new ReviewStrategy('authorization.k8s.io', 'SubjectAccessReview', 'subjectaccessreviews', false, () => ALLOWED),
  new ReviewStrategy('authorization.k8s.io', 'LocalSubjectAccessReview', 'localsubjectaccessreviews', true, () => ALLOWED),
  new ReviewStrategy('authorization.k8s.io', 'SelfSubjectRulesReview', 'selfsubjectrulesreviews', false, () => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  })),
  new ReviewStrategy('authentication.k8s.io', 'SelfSubjectReview', 'selfsubjectreviews', false, () => ({ userInfo: ADMIN })),
  new ReviewStrategy('authentication.k8s.io', 'TokenReview', 'tokenreviews', false, (req) => {
    const spec = (req.spec ?? {}) as { token?: unknown; audiences?: string[] };
    return {
      authenticated: true,
      user: { username: tokenSubject(spec.token), groups: ['system:authenticated'] },
      audiences: spec.audiences ?? [],
    };
  }),
];
