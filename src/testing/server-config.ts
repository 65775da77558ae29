/**
 * `restConfigFor(server)`: a client configuration for a local API server — its URL, verification
 * against the CA that signed its certificate, and its admin token — for tests that start a server with
 * `startApiServer` and talk to it with Converge's client. Invariant: the config trusts exactly that
 * server's CA (never `insecureSkipVerify`), so a test cannot pass against the wrong server.
 */
import type { RunningApiServer } from '../apiserver/index.js';
import { bearerTokenAuth, type RestConfig } from '../client/index.js';

/** The server's URL, CA and admin token; no client-side rate limit (tests are the only caller). */
export function restConfigFor(server: Pick<RunningApiServer, 'url' | 'caCertificate' | 'token'>): RestConfig {
  return {
    server: server.url,
    ...(server.caCertificate === undefined ? {} : { tls: { ca: server.caCertificate } }),
    auth: bearerTokenAuth(server.token),
    qps: -1,
    namespace: 'default',
  };
}
