/**
 * Test support for the RBAC test: a recording HTTP proxy on 127.0.0.1 between an operator and the
 * API server. Every request the operator sends passes through unchanged (watches stream) and is
 * recorded as the authorizer would see it — verb, API group, resource, subresource, namespace — so
 * the test can check the ClusterRole against what the code actually calls, not against a hand list.
 * The operator speaks plain HTTP to the proxy on loopback (test support only) and carries its own
 * credentials, which pass through untouched; the proxy reaches the server over HTTPS, trusting the
 * server's CA. Invariant: the recording is complete — the operator is given only the proxy's URL.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** One request in the terms of Kubernetes authorization (`kubectl auth can-i` speaks the same). */
export interface ApiCall {
  verb: string;
  group: string;
  resource: string;
  /** Empty when the request is on the object itself. */
  subresource: string;
  /** Empty for cluster-scoped resources and all-namespace lists/watches. */
  namespace: string;
  /** The HTTP status the server answered (a denied or failed call still needs the permission). */
  code: number;
  /**
   * Owners the written object names with `blockOwnerDeletion: true`. Setting that needs no request of
   * its own, but admission (OwnerReferencesPermissionEnforcement) requires `update` on the owner's
   * `finalizers` subresource from the writer — a permission the code implies without calling it.
   */
  blockedOwners: { apiVersion: string; kind: string }[];
}

/**
 * The authorizer's view of a request, or undefined for non-resource paths (`/api`, `/version`, …).
 * Verbs follow the API server's request-info rules: GET on a collection is `list`, or `watch` with
 * `?watch=true`; DELETE on a collection is `deletecollection`.
 */
export function apiCallOf(method: string, url: string): Omit<ApiCall, 'code' | 'blockedOwners'> | undefined {
  const { pathname, searchParams } = new URL(url, 'http://recorder');
  const parts = pathname.split('/').filter((p) => p !== '');
  let rest: string[];
  let group: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1]!;
    rest = rest.slice(2);
  }
  const [resource, name, subresource = ''] = rest as [string, string | undefined, string | undefined];
  const watch = searchParams.get('watch') === 'true' || searchParams.get('watch') === '1';
  const verb = {
    GET: name === undefined ? (watch ? 'watch' : 'list') : 'get',
    HEAD: name === undefined ? 'list' : 'get',
    POST: 'create',
    PUT: 'update',
    PATCH: 'patch',
    DELETE: name === undefined ? 'deletecollection' : 'delete',
  }[method.toUpperCase()];
  if (verb === undefined) return undefined;
  return { verb, group, resource, subresource, namespace };
}

/**
 * The owner references with `blockOwnerDeletion: true` in a request body (object or merge patch);
 * undefined when the body is not JSON and so cannot be read.
 */
function blockedOwnersOf(body: Buffer): ApiCall['blockedOwners'] | undefined {
  if (body.length === 0) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const refs = (parsed as { metadata?: { ownerReferences?: unknown } } | null)?.metadata?.ownerReferences;
  if (!Array.isArray(refs)) return [];
  return refs
    .filter((r): r is { apiVersion: string; kind: string; blockOwnerDeletion: boolean } => r?.blockOwnerDeletion === true)
    .map((r) => ({ apiVersion: r.apiVersion, kind: r.kind }));
}

export interface RecordingProxy {
  /** Give this to the operator instead of the server's URL. */
  readonly url: string;
  readonly calls: ApiCall[];
  /** Paths outside the resource API (discovery, version), which RBAC grants through nonResourceURLs. */
  readonly nonResource: string[];
  /** Requests whose body was not JSON, so the owner references in it could not be checked. */
  readonly unreadable: string[];
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (a free port) forwarding to `target`, an `https://` API server signed by `ca` (PEM). */
export async function startRecordingProxy(target: string, ca: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const calls: ApiCall[] = [];
  const nonResource: string[] = [];
  const unreadable: string[] = [];
  const agent = new https.Agent({ keepAlive: true, ca });
  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const call = apiCallOf(method, path);
    if (!call) nonResource.push(path);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const body = new Promise<Buffer>((resolve) => req.on('end', () => resolve(Buffer.concat(chunks))));
    const record = async (code: number): Promise<void> => {
      if (!call) return;
      const blockedOwners = blockedOwnersOf(await body);
      if (blockedOwners === undefined) unreadable.push(`${method} ${path}`);
      calls.push({ ...call, code, blockedOwners: blockedOwners ?? [] });
    };
    const forward = https.request(
      { host: upstream.hostname, port: upstream.port, method, path, headers: { ...req.headers, host: upstream.host }, agent },
      (answer) => {
        void record(answer.statusCode ?? 0);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', (err) => {
      void record(502);
      res.destroy(err);
    });
    // The operator hung up before the answer ended (e.g. it closed a watch): free the upstream request.
    res.on('close', () => {
      if (!res.writableFinished) forward.destroy();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    nonResource,
    unreadable,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
