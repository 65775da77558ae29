/**
 * Authentication at the socket: one random admin bearer token per server, and the ServiceAccount
 * tokens the server minted. A bearer token rather than a client certificate because every client
 * (kubectl, client-go, client-node, Python, curl) sends one from a kubeconfig with no extra key
 * material, and checking the admin's costs a comparison. Invariant: a request gets a user only with
 * exactly that token (the admin), a live minted token (its ServiceAccount), or no credential at all
 * on the paths kube-apiserver's `system:public-info-viewer` role opens to anonymous users (health and
 * version); a wrong credential is refused everywhere, as kube-apiserver refuses it before any
 * anonymous rule.
 *
 * The in-process `handle()` does not pass through here: a caller in the same process is trusted.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { InvalidOptionError } from '../../meta/index.js';
import { ADMIN_USER, ANONYMOUS_USER, type UserInfo } from '../ground/index.js';

/** The paths anonymous users may read (kube-apiserver's `system:public-info-viewer`). */
const PUBLIC_INFO_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version', '/version/']);

/** 32 random bytes, base64url: unguessable, and safe in a header and a kubeconfig. */
export function generateAdminToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The user a request's `authorization` header authenticates as for `path`; undefined means 401. */
export type Authenticator = (path: string, authorization: string | undefined) => UserInfo | undefined;

/** Tokens other than the admin's (ServiceAccount tokens): the user, or undefined when unknown. */
export type TokenAuthenticator = (token: string) => UserInfo | undefined;

/** Whether a candidate is exactly `token`, in a time that does not depend on how much of it matches. */
export function adminTokenMatcher(token: string): (candidate: string) => boolean {
  if (!/^\S+$/.test(token)) throw new InvalidOptionError('adminToken', 'must be a non-empty token without whitespace');
  // Digests have one length, so the comparison takes the same time whatever was sent.
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  const expected = digest(token);
  return (candidate) => timingSafeEqual(digest(candidate), expected);
}

export function adminTokenAuthenticator(token: string, others: TokenAuthenticator = () => undefined): Authenticator {
  const isAdmin = adminTokenMatcher(token);
  return (path, authorization) => {
    if (authorization === undefined) {
      const q = path.indexOf('?');
      return PUBLIC_INFO_PATHS.has(q === -1 ? path : path.slice(0, q)) ? ANONYMOUS_USER : undefined;
    }
    const m = /^bearer\s+(\S+)\s*$/i.exec(authorization);
    if (m === null) return undefined;
    return isAdmin(m[1]!) ? ADMIN_USER : others(m[1]!);
  };
}
