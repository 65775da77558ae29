/**
 * Authorization of one request before it is routed, as kube-apiserver's filters do it: impersonation
 * headers first (the caller needs `impersonate` on the user, ServiceAccount, groups and uid it names),
 * then the request's attributes are recorded for the acting user and the RBAC authorizer decides; a
 * denial is the 403 Status kube-apiserver writes, word for word. Invariant: a request without a user
 * (the in-process `handle()`) is trusted and neither recorded nor checked; `system:masters` is
 * neither recorded nor checked beyond one group test, so the admin's hot path stays as it was. The
 * checks admission makes on a user's behalf are recorded with the user's requests.
 */
import { forbiddenRequest } from '../ground/index.js';
import { headerOf, type ApiRequest } from '../wire/index.js';
import { ANONYMOUS_USER, isMaster, parseServiceAccountUsername, serviceAccountUser, type UserInfo } from '../ground/index.js';
import type { Decision, RbacAuthorizer } from './rbac-authorizer.js';
import { requestAttributes, type RequestAttributes, type ResourceAttributes } from '../ground/index.js';
import type { RequestRecorder } from './request-recorder.js';

/** kube-apiserver's words for a denial: who, which verb, on what. */
export function forbiddenMessage(user: UserInfo, a: RequestAttributes): string {
  if (a.kind === 'nonResource') return `User "${user.username}" cannot ${a.verb} path "${a.path}"`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const where = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `User "${user.username}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}" ${where}`;
}

function denied(user: UserInfo, a: RequestAttributes, reason: string): Error {
  const why = reason ? `${forbiddenMessage(user, a)}: ${reason}` : forbiddenMessage(user, a);
  return a.kind === 'nonResource' ? forbiddenRequest('', '', '', why) : forbiddenRequest(a.apiGroup, a.resource, a.name, why);
}

const impersonation = (verb: string, apiGroup: string, resource: string, name: string, namespace = ''): ResourceAttributes => ({
  kind: 'resource',
  verb,
  apiGroup,
  apiVersion: 'v1',
  resource,
  subresource: '',
  namespace,
  name,
});

const listHeader = (req: ApiRequest, name: string): string[] =>
  (headerOf(req, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export class RequestAuthorization {
  readonly #authorizer: RbacAuthorizer;
  readonly #recorder: RequestRecorder;

  constructor(authorizer: RbacAuthorizer, recorder: RequestRecorder) {
    this.#authorizer = authorizer;
    this.#recorder = recorder;
  }

  /** The user the request acts as (after impersonation); throws the 403 when it may not. */
  check(req: ApiRequest, user: UserInfo): UserInfo {
    // The admin's hot path: one group test and one header lookup.
    if (isMaster(user) && req.headers?.['impersonate-user'] === undefined) return user;
    const acting = this.#impersonated(req, user);
    if (isMaster(acting)) return acting;
    const a = requestAttributes(req.method, req.path);
    this.#recorder.record(acting.username, a);
    const decision = this.#authorizer.authorize(acting, a);
    if (!decision.allowed) throw denied(acting, a, decision.reason);
    return acting;
  }

  /**
   * A check the server makes for a request's user beyond the request itself (admission asking
   * whether the user may delete an object or update its owner's finalizers), recorded like a request
   * so a generated Role grants it too.
   */
  authorizeCheck(user: UserInfo, a: ResourceAttributes): Decision {
    if (isMaster(user)) return { allowed: true, reason: '' };
    this.#recorder.record(user.username, a);
    return this.#authorizer.authorize(user, a);
  }

  #impersonated(req: ApiRequest, user: UserInfo): UserInfo {
    const username = headerOf(req, 'impersonate-user');
    const groups = listHeader(req, 'impersonate-group');
    const uid = headerOf(req, 'impersonate-uid');
    if (username === undefined) {
      if (groups.length > 0 || uid !== undefined) throw forbiddenRequest('', '', '', 'requested impersonation without a user');
      return user;
    }
    const sa = parseServiceAccountUsername(username);
    const wanted: ResourceAttributes[] = [
      sa ? impersonation('impersonate', '', 'serviceaccounts', sa.name, sa.namespace) : impersonation('impersonate', '', 'users', username),
      ...groups.map((g) => impersonation('impersonate', '', 'groups', g)),
      ...(uid !== undefined ? [impersonation('impersonate', 'authentication.k8s.io', 'uids', uid)] : []),
    ];
    for (const a of wanted) {
      const d = this.#authorizer.authorize(user, a);
      if (!d.allowed) throw denied(user, a, d.reason);
    }
    const all = groups.length > 0 || !sa ? [...groups] : [...serviceAccountUser(sa.namespace, sa.name).groups];
    const anonymous = username === ANONYMOUS_USER.username;
    if (!anonymous && !all.includes('system:authenticated') && !all.includes('system:unauthenticated')) all.push('system:authenticated');
    return { username, groups: all, ...(uid !== undefined ? { uid } : {}) };
  }
}
