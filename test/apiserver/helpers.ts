// Shared test helpers: a JSON request function over real HTTP and a line-by-line watch reader.
import { request as httpRequest, type IncomingMessage, type ClientRequest } from 'node:http';
import { startApiServer, type RunningApiServer, type StartApiServerOptions } from 'kube-converge/apiserver';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
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
      const init: RequestInit = { method, headers: { accept: 'application/json', ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const res = await fetch(srv.url + path, init);
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, text, body: parsed };
    },
    async watch(path, headers = {}) {
      const w = await openWatch(srv.url + path, headers);
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
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
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

function openWatch(url: string, headers: Record<string, string>): Promise<WatchReader> {
  return new Promise((resolve, reject) => {
    const events: WatchEvent[] = [];
    const waiters: (() => void)[] = [];
    let done = false;
    let buf = '';
    const wake = (): void => {
      for (const w of waiters.splice(0)) w();
    };
    let req: ClientRequest | undefined = undefined;
    req = httpRequest(url, { headers: { accept: 'application/json', ...headers } }, (res) => {
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
  apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data,
});
