/**
 * Simple credential sources: a static bearer token, a token file re-read as it rotates (projected
 * service-account tokens are replaced about hourly), HTTP basic auth, and impersonation headers
 * layered over any of them. Invariant: a token file is never read more than once per
 * `TOKEN_FILE_REREAD_MS` except after a 401, when a fresh read decides whether a retry can help.
 */
import { readFile } from 'node:fs/promises';
import type { Clock } from '../meta/index.js';
import { KubeConfigError } from './errors.js';
import type { AuthProvider, Credentials } from './rest-config.js';

/** client-go re-reads token files once a minute. */
export const TOKEN_FILE_REREAD_MS = 60_000;

/** Credentials that send one fixed bearer token on every request. */
export function bearerTokenAuth(token: string): AuthProvider {
  const creds: Credentials = { headers: { authorization: `Bearer ${token}` } };
  return { credentials: () => Promise.resolve(creds) };
}

/** Credentials that send HTTP basic authentication with `username` and `password`. */
export function basicAuth(username: string, password: string): AuthProvider {
  const creds: Credentials = { headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` } };
  return { credentials: () => Promise.resolve(creds) };
}

/** Options of `tokenFileAuth`: the token file to read and the clock that paces re-reading it. */
export interface TokenFileAuthOptions {
  path: string;
  clock: Clock;
  /** Used until the file has been read successfully (kubeconfig `token` next to `tokenFile`). */
  initialToken?: string | undefined;
  /** For error messages. */
  source?: { file?: string; context?: string };
}

/** A bearer token read from `path`, re-read every minute and after a 401. */
export function tokenFileAuth({ path, clock, initialToken, source }: TokenFileAuthOptions): AuthProvider {
  let token = initialToken;
  let readAt = -Infinity;
  let reading: Promise<string> | undefined;
  const read = (): Promise<string> =>
    (reading ??= readFile(path, 'utf8')
      .then((text) => {
        const t = text.trim();
        if (!t) throw new Error('the file is empty');
        token = t;
        readAt = clock.now();
        return t;
      })
      .catch((cause: unknown) => {
        // A token we read before stays usable while the file is briefly missing during rotation.
        if (token !== undefined) return token;
        throw new KubeConfigError(source?.file, source?.context, `cannot read token file ${path}: ${(cause as Error).message}`, { cause });
      })
      .finally(() => {
        reading = undefined;
      }));
  return {
    async credentials() {
      const t = clock.now() - readAt >= TOKEN_FILE_REREAD_MS ? await read() : token!;
      return { headers: { authorization: `Bearer ${t}` } };
    },
    async refresh() {
      const before = token;
      readAt = -Infinity;
      return (await read()) !== before;
    },
  };
}

/** The identity to act as (`Impersonate-User`, `-Group`, `-Extra-*` headers), as kubectl's `--as` flags. */
export interface Impersonation {
  user?: string | undefined;
  uid?: string | undefined;
  groups?: string[] | undefined;
  extra?: Record<string, string[]> | undefined;
}

/** Adds `Impersonate-*` headers (kubeconfig `as`, `as-uid`, `as-groups`, `as-user-extra`) to `inner`'s credentials. */
export function withImpersonation(inner: AuthProvider | undefined, imp: Impersonation): AuthProvider {
  // One header line per group / extra value: the API server does not split values on commas.
  const headers: Record<string, string | string[]> = {};
  if (imp.user) headers['impersonate-user'] = imp.user;
  if (imp.uid) headers['impersonate-uid'] = imp.uid;
  if (imp.groups?.length) headers['impersonate-group'] = imp.groups;
  for (const [k, vs] of Object.entries(imp.extra ?? {})) headers[`impersonate-extra-${encodeURIComponent(k)}`] = vs;
  const provider: AuthProvider = {
    async credentials(o) {
      const c = (await inner?.credentials(o)) ?? {};
      return { ...c, headers: { ...c.headers, ...headers } };
    },
  };
  if (inner?.refresh) provider.refresh = () => inner.refresh!();
  return provider;
}
