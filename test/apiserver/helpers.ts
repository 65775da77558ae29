// Shared test helpers: raw requests to a running server over its own HTTPS (its CA, its admin token),
// a JSON request function and a line-by-line watch reader on top of them; and one JSON request
// straight to an in-process server's `handle`, for tests that need no socket.
import { request as httpRequest, type IncomingMessage, type ClientRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { startApiServer, type ApiServer, type RunningApiServer, type StartApiServerOptions } from 'kube-converge/apiserver';

type Server = Pick<RunningApiServer, 'url' | 'caCertificate' | 'token'>;

/**
 * `http.request` to `server.url + path`, trusting the server's CA and sending its admin token (unless
 * `token` is given: `null` sends none). Node's global fetch cannot be given a CA, hence this.
 */
export function serverRequest(
  server: Server,
  path: string,
  options: RequestOptions & { token?: string | null } = {},
  onResponse?: (res: IncomingMessage) => void,
): ClientRequest {
  const { token = server.token, headers, ...rest } = options;
  const auth = token === null ? {} : { authorization: `Bearer ${token}` };
  const o = { ...rest, headers: { ...auth, ...headers }, ...(server.caCertificate ? { ca: server.caCertificate } : {}) };
  const url = server.url + path;
  return url.startsWith('https:') ? httpsRequest(url, o, onResponse) : httpRequest(url, o, onResponse);
}

/** A fetch-like call over `serverRequest`: the whole answer, as a WHATWG `Response`. */
export function serverFetch(
  server: Server,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array; token?: string | null } = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    // An explicit length: Node frames no body on a DELETE otherwise.
    const length = init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) };
    const headers = { ...length, ...init.headers };
    const req = serverRequest(
      server,
      path,
      { method: init.method ?? 'GET', headers, ...(init.token !== undefined ? { token: init.token } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) for (const one of Array.isArray(v) ? v : [v ?? '']) headers.append(k, one);
          const status = res.statusCode ?? 0;
          const body = status === 204 || status === 304 || init.method === 'HEAD' ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers }));
        });
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** The body parsed as JSON, or undefined when it is not JSON. */
function parsedJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One request to `server.handle`, in process: a string body is sent as written, anything else as
 * JSON, with `contentType`; the answer as status, text and parsed body.
 */
export async function handleJson(
  server: Pick<ApiServer, 'handle'>,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<Omit<Reply, 'headers'>> {
  const r = await server.handle({
    method,
    path,
    headers: { 'content-type': contentType, accept: 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: r.status, text: r.body, body: parsedJson(r.body) };
}

export interface Api {
  srv: RunningApiServer;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  watch(path: string, headers?: Record<string, string>): Promise<WatchReader>;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function startApi(opts: StartApiServerOptions = {}): Promise<Api> {
  const srv = await startApiServer({ port: 0, ...opts });
  const watchers: WatchReader[] = [];
  return {
    srv,
    async call(method, path, body, headers = {}) {
      const init: { method: string; headers: Record<string, string>; body?: string } = {
        method,
        headers: { accept: 'application/json', ...headers },
      };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        init.headers['content-type'] ??= 'application/json';
      }
      const res = await serverFetch(srv, path, init);
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: parsedJson(text) };
    },
    async watch(path, headers = {}) {
      const w = await openWatch(srv, path, headers);
      watchers.push(w);
      return w;
    },
    async [Symbol.asyncDispose]() {
      for (const w of watchers) w.close();
      await srv.stop();
    },
  };
}

export interface WatchEvent {
  type: string;
  object: any;
}

export interface WatchReader {
  status: number;
  headers: IncomingMessage['headers'];
  /** Next event; rejects after `ms` without one. Resolves undefined once the stream ended. */
  next(ms?: number): Promise<WatchEvent | undefined>;
  /** Collects `n` events. */
  take(n: number, ms?: number): Promise<WatchEvent[]>;
  /** Resolves when the server ends the stream. */
  ended(ms?: number): Promise<void>;
  close(): void;
}

function openWatch(server: Server, path: string, headers: Record<string, string>): Promise<WatchReader> {
  return new Promise((resolve, reject) => {
    const events: WatchEvent[] = [];
    const waiters: (() => void)[] = [];
    let done = false;
    let buf = '';
    const wake = (): void => {
      for (const w of waiters.splice(0)) w();
    };
    let req: ClientRequest | undefined = undefined;
    req = serverRequest(server, path, { headers: { accept: 'application/json', ...headers } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim()) events.push(JSON.parse(line) as WatchEvent);
        }
        wake();
      });
      const finish = (): void => {
        done = true;
        wake();
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
      const waitFor = (pred: () => boolean, ms: number, what: string): Promise<void> =>
        new Promise((ok, fail) => {
          if (pred()) return ok();
          const t = setTimeout(() => fail(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
          const check = (): void => {
            if (pred()) {
              clearTimeout(t);
              ok();
            } else waiters.push(check);
          };
          waiters.push(check);
        });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        async next(ms = 2000) {
          await waitFor(() => events.length > 0 || done, ms, 'a watch event');
          return events.shift();
        },
        async take(n, ms = 2000) {
          await waitFor(() => events.length >= n || done, ms, `${n} watch events (have ${events.length})`);
          return events.splice(0, n);
        },
        async ended(ms = 2000) {
          await waitFor(() => done, ms, 'the end of the stream');
        },
        close() {
          req?.destroy();
        },
      });
    });
    req.on('error', (e) => (done ? undefined : reject(e)));
    req.end();
  });
}

export const cm = (name: string, data: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data,
});
