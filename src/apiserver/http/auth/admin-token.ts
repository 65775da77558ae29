/**
 * Authentication at the socket: one random admin bearer token per server. A bearer token rather than
 * a client certificate because every client (kubectl, client-go, client-node, Python, curl) sends one
 * from a kubeconfig with no extra key material, and checking it costs a comparison. Invariant: a
 * request is let through only with exactly that token, or with no credential at all on the paths
 * kube-apiserver's `system:public-info-viewer` role opens to anonymous users (health and version);
 * a wrong credential is refused everywhere, as kube-apiserver refuses it before any anonymous rule.
 *
 * The in-process `handle()` does not pass through here: a caller in the same process is trusted.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { InvalidOptionError } from '../../../meta/index.js';

/** The paths anonymous users may read (kube-apiserver's `system:public-info-viewer`). */
const PUBLIC_INFO_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version', '/version/']);

/** 32 random bytes, base64url: unguessable, and safe in a header and a kubeconfig. */
export function generateAdminToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Says whether a request's `authorization` header lets it reach `path`. */
export type Authenticator = (path: string, authorization: string | undefined) => boolean;

export function adminTokenAuthenticator(token: string): Authenticator {
  if (!/^\S+$/.test(token)) throw new InvalidOptionError('adminToken', 'must be a non-empty token without whitespace');
  // Digests have one length, so the comparison takes the same time whatever was sent.
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  const expected = digest(token);
  return (path, authorization) => {
    if (authorization === undefined) {
      const q = path.indexOf('?');
      return PUBLIC_INFO_PATHS.has(q === -1 ? path : path.slice(0, q));
    }
    const m = /^bearer\s+(\S+)\s*$/i.exec(authorization);
    return m !== null && timingSafeEqual(digest(m[1]!), expected);
  };
}
