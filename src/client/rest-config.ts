/**
 * RestConfig: everything needed to reach one API server as one identity — the resolved form of a
 * kubeconfig context or of the in-cluster environment (client-go's `rest.Config`). It holds material,
 * not files, except where a file must be re-read as it rotates (token files), which the auth provider
 * owns. Invariant: a RestConfig is complete — a transport built from it needs nothing else.
 */

/** PEM material and verification switches for HTTPS servers. */
export interface TlsConfig {
  /** CA bundle (PEM) that signs the server certificate; absent = the system roots. */
  ca?: string | Buffer;
  /** Client certificate and key (PEM) for mutual TLS. */
  cert?: string | Buffer;
  key?: string | Buffer;
  /** `insecure-skip-tls-verify`: accept any server certificate. */
  insecureSkipVerify?: boolean;
  /** `tls-server-name`: the name to verify (and send as SNI) instead of the URL's host. */
  serverName?: string;
}

/** Per-request credentials an auth provider adds. */
export interface Credentials {
  headers?: Record<string, string | string[]>;
  /** Client certificate/key from an exec plugin (PEM); overrides the config's. */
  cert?: string;
  key?: string;
}

/**
 * Supplies credentials for each request. `refresh()` is called after a 401: it discards cached
 * credentials and says whether new ones might differ (then the request is retried once).
 */
export interface AuthProvider {
  credentials(options?: { signal?: AbortSignal | undefined }): Promise<Credentials>;
  refresh?(): Promise<boolean>;
}

/** Everything needed to reach one API server as one identity: server URL, TLS material, credentials and default namespace. */
export interface RestConfig {
  /** Base URL of the API server, e.g. `https://10.0.0.1:6443` (a path prefix is kept). */
  server: string;
  tls?: TlsConfig;
  auth?: AuthProvider;
  /** `proxy-url`: an `http://` proxy reached with CONNECT. */
  proxyUrl?: string;
  /** The context's namespace (or the service account's), for callers that want a default. */
  namespace?: string;
  /** Client-side rate limit; client-go defaults 5 qps / 10 burst. `qps: -1` or `Infinity` disables it. */
  qps?: number | undefined;
  burst?: number | undefined;
  /** Per-request timeout for non-watch requests; 0 or absent = none. */
  timeoutMs?: number;
  userAgent?: string;
  /** Where this config came from, for error messages. */
  source?: { file?: string; context?: string };
}
