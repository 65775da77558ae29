/**
 * An HTTP endpoint run as a manager runnable (the metrics server and the health-probe server). It
 * binds on `start`, never earlier, serves until the signal aborts, then closes the listener and
 * every kept-alive connection. Invariant: `listening()` resolves with the bound base URL (the real
 * port when asked for port 0) or rejects with the bind error; a handler's failure answers 500 and is
 * logged, it never stops the server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidOptionError, type Logger } from '../../meta/index.js';
import { whenAborted } from '../../meta/internal.js';
import type { Runnable } from '../../controller/index.js';

export interface HttpResponse {
  status: number;
  body: string;
  contentType?: string;
}

/** Answers one request; `signal` aborts when the client hangs up or the server stops. */
export type HttpHandler = (request: { method: string; url: URL; signal: AbortSignal }) => Promise<HttpResponse>;

/** Parses `host:port`, `:port` or `[v6]:port`; port 0 picks a free port. */
export function parseBindAddress(path: string, address: string): { host: string | undefined; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(address);
  if (!m) throw new InvalidOptionError(path, `must be "host:port", ":port" or "0" (disabled), got ${JSON.stringify(address)}`);
  const port = Number(m[3]);
  if (port > 65535) throw new InvalidOptionError(path, `port out of range: ${port}`);
  const host = m[1] ?? m[2];
  return { host: host === '' ? undefined : host, port };
}

export class HttpServerRunnable implements Runnable {
  readonly #name: string;
  readonly #bind: { host: string | undefined; port: number };
  readonly #handler: HttpHandler;
  readonly #log: Logger;
  readonly #listening: Promise<string>;
  #resolveListening!: (url: string) => void;
  #rejectListening!: (err: unknown) => void;

  constructor(options: { name: string; bind: { host: string | undefined; port: number }; handler: HttpHandler; logger: Logger }) {
    this.#name = options.name;
    this.#bind = options.bind;
    this.#handler = options.handler;
    this.#log = options.logger;
    this.#listening = new Promise<string>((resolve, reject) => {
      this.#resolveListening = resolve;
      this.#rejectListening = reject;
    });
    // A bind failure is reported through start(); this keeps the unobserved copy from crashing the process.
    this.#listening.catch(() => {});
  }

  needLeaderElection(): boolean {
    return false;
  }

  /** The base URL once bound, e.g. `http://127.0.0.1:39123`. */
  listening(): Promise<string> {
    return this.#listening;
  }

  async start(signal: AbortSignal): Promise<void> {
    if (signal.aborted) {
      this.#rejectListening(signal.reason);
      return;
    }
    const stopped = new AbortController();
    const server = createServer((req, res) => void this.#serve(req, res, stopped.signal));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#bind.port, this.#bind.host, () => {
        server.off('error', reject);
        resolve();
      });
    }).catch((err: unknown) => {
      this.#rejectListening(err);
      throw err;
    });
    const addr = server.address() as AddressInfo;
    const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    const url = `http://${host}:${addr.port}`;
    this.#log.info({ server: this.#name, url }, 'serving');
    this.#resolveListening(url);
    await whenAborted(signal);
    stopped.abort(signal.reason);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  async #serve(req: IncomingMessage, res: ServerResponse, stopped: AbortSignal): Promise<void> {
    const hangUp = new AbortController();
    res.once('close', () => hangUp.abort());
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const out = await this.#handler({ method: req.method ?? 'GET', url, signal: AbortSignal.any([hangUp.signal, stopped]) });
      res.writeHead(out.status, { 'content-type': out.contentType ?? 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
      res.end(out.body);
    } catch (err) {
      this.#log.error({ server: this.#name, path: req.url, err }, 'request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal server error\n');
    }
  }
}
