/**
 * Who a request comes from, as kube-apiserver's authenticators name it: a user name and groups. The
 * admin (the server's own token) is in `system:masters`, which every authorizer lets through; a
 * ServiceAccount is `system:serviceaccount:<ns>:<name>` in the groups kube-apiserver gives it.
 * Invariant: every authenticated user carries `system:authenticated`, the anonymous one
 * `system:unauthenticated` instead.
 */

export interface UserInfo {
  username: string;
  groups: readonly string[];
  uid?: string;
}

export const MASTERS_GROUP = 'system:masters';

export const ADMIN_USER: UserInfo = { username: 'converge-admin', groups: [MASTERS_GROUP, 'system:authenticated'] };

export const ANONYMOUS_USER: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

const SA_PREFIX = 'system:serviceaccount:';

export function serviceAccountUser(namespace: string, name: string, uid?: string): UserInfo {
  return {
    username: `${SA_PREFIX}${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
    ...(uid ? { uid } : {}),
  };
}

/** `{ namespace, name }` of a ServiceAccount user name, or undefined for any other name. */
export function parseServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const [namespace, name, ...rest] = username.slice(SA_PREFIX.length).split(':');
  return namespace && name && rest.length === 0 ? { namespace, name } : undefined;
}

export const isMaster = (user: UserInfo): boolean => user.groups.includes(MASTERS_GROUP);
