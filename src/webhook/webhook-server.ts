/**
 * The webhook server: admission and conversion webhooks over HTTPS, run by the manager (started with
 * its HTTP servers, before the caches, on every replica). Defaults are controller-runtime's: port
 * 9443, `tls.crt` and `tls.key` in `<tmp>/k8s-webhook-server/serving-certs`, read again when they
 * change. Request handling (`handle`) knows nothing of sockets; `start` is the HTTPS adapter.
 * Invariants: one handler per path; a request body over 7 MiB, not JSON, or not a POST is refused
 * with a clear message and never reaches a handler; a handler's failure is an answer, never a crash.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidOptionError, noopLogger, type Logger } from '../meta/index.js';
import { requireInt, whenAborted } from '../meta/internal.js';
import type { HealthCheck } from '../manager/index.js';
import type { WebhookServerRunnable } from '../manager/internal.js';
import { serveAdmission, type AdmissionHandler } from './admission-handler.js';
import { readKeyPair, watchKeyPair } from './certificate-watcher.js';
import { serveConversion } from './conversion-review.js';
import type { Conversion } from './conversion.js';
import { CONVERT_PATH } from './paths.js';

/** Options of `new WebhookServer` (and of `webhookServerFor`): where it binds and where its certificate is. */
export interface WebhookServerOptions {
  /** Address to bind; default all interfaces. */
  host?: string;
  /** Default 9443; 0 picks a free port (see `listening()`). */
  port?: number;
  /** Folder of the certificate and key; default `<tmp>/k8s-webhook-server/serving-certs`. */
  certDir?: string;
  /** Default `tls.crt`. */
  certName?: string;
  /** Default `tls.key`. */
  keyName?: string;
  logger?: Logger;
}

/** What a registered admission webhook is, for the manifests. */
export interface AdmissionRegistration {
  readonly type: 'mutating' | 'validating';
  readonly path: string;
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly operations: readonly ('CREATE' | 'UPDATE' | 'DELETE')[];
  readonly sideEffects: 'None' | 'NoneOnDryRun';
}

/** An answer of `handle`: the status, the JSON (or text) body. */
export interface WebhookHttpResponse {
  status: number;
  body: string;
  contentType: string;
}

/** Largest request body accepted, as controller-runtime's webhook server. */
const MAX_REQUEST_BYTES = 7 * 1024 * 1024;

type Route = (body: unknown, signal: AbortSignal) => Promise<unknown>;

/** The HTTPS server of a manager's webhooks; `register*` add webhooks, `start` serves them. */
export class WebhookServer implements WebhookServerRunnable {
  readonly certFile: string;
  readonly keyFile: string;
  readonly #host: string | undefined;
  readonly #port: number;
  readonly #log: Logger;
  readonly #routes = new Map<string, Route>();
  readonly #registrations: AdmissionRegistration[] = [];
  readonly #conversions = new Map<string, Conversion>();
  readonly #listening: Promise<string>;
  #resolveListening!: (url: string) => void;
  #rejectListening!: (err: unknown) => void;
  #bound = false;

  constructor(options: WebhookServerOptions = {}) {
    const dir = options.certDir ?? join(tmpdir(), 'k8s-webhook-server', 'serving-certs');
    this.certFile = join(dir, options.certName ?? 'tls.crt');
    this.keyFile = join(dir, options.keyName ?? 'tls.key');
    this.#host = options.host;
    this.#port = options.port ?? 9443;
    requireInt('webhook.port', this.#port);
    if (this.#port > 65535) throw new InvalidOptionError('webhook.port', `port out of range: ${this.#port}`);
    this.#log = (options.logger ?? noopLogger).child({ component: 'webhook' });
    this.#listening = new Promise<string>((resolve, reject) => {
      this.#resolveListening = resolve;
      this.#rejectListening = reject;
    });
    // A bind failure is reported through start(); this keeps the unobserved copy from crashing the process.
    this.#listening.catch(() => {});
  }

  /** Serves `handler` as an admission webhook at `path`; `registration` is what the manifests say of it. */
  registerAdmission(registration: AdmissionRegistration, handler: AdmissionHandler): void {
    this.#route(registration.path, (body, signal) => serveAdmission(body, handler, { logger: this.#log, signal }));
    this.#registrations.push(Object.freeze({ ...registration, operations: [...registration.operations] }));
  }

  /** Serves `conversion` at `/convert` (one path for every kind, as controller-runtime does). */
  registerConversion(conversion: Conversion): void {
    const key = `${conversion.group}/${conversion.kind}`;
    if (this.#conversions.has(key)) throw new InvalidOptionError('conversion', `a conversion of ${key} is already registered`);
    this.#conversions.set(key, conversion);
    if (!this.#routes.has(CONVERT_PATH)) this.#route(CONVERT_PATH, async (body) => serveConversion(body, this.#conversions, this.#log));
  }

  /** Whether a webhook is served at `path`. */
  serves(path: string): boolean {
    return this.#routes.has(path);
  }

  /** The admission webhooks registered so far, in registration order. */
  registrations(): readonly AdmissionRegistration[] {
    return [...this.#registrations];
  }

  /** The conversions registered so far. */
  conversions(): readonly Conversion[] {
    return [...this.#conversions.values()];
  }

  needLeaderElection(): boolean {
    return false;
  }

  /** The base URL once bound, e.g. `https://127.0.0.1:9443`; rejects with the bind or certificate error. */
  listening(): Promise<string> {
    return this.#listening;
  }

  /** A readiness check that passes once the server accepts connections (controller-runtime's `StartedChecker`). */
  startedCheck(): HealthCheck {
    return () => {
      if (!this.#bound) throw new Error('webhook server has not started yet');
    };
  }

  /** Answers one request in-process: what the HTTPS adapter does with every request. */
  async handle(request: {
    method: string;
    path: string;
    contentType?: string | undefined;
    body: string;
    signal?: AbortSignal | undefined;
  }): Promise<WebhookHttpResponse> {
    const route = this.#routes.get(request.path);
    if (!route) return text(404, `no webhook is served at ${request.path}\n`);
    if (request.method !== 'POST') return text(405, `webhooks accept POST only, got ${request.method}\n`);
    if (!/^application\/json\s*(;|$)/i.test(request.contentType ?? '')) {
      return text(400, `contentType=${request.contentType ?? ''}, expected application/json\n`);
    }
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch (err) {
      return text(400, `the request body is not JSON: ${(err as Error).message}\n`);
    }
    const out = await route(body, request.signal ?? new AbortController().signal);
    return { status: 200, body: JSON.stringify(out), contentType: 'application/json' };
  }

  async start(signal: AbortSignal): Promise<void> {
    if (signal.aborted) {
      this.#rejectListening(signal.reason);
      return;
    }
    const stopped = new AbortController();
    let server: Server;
    try {
      const pair = await readKeyPair(this.certFile, this.keyFile);
      server = createServer({ ...pair, minVersion: 'TLSv1.2' }, (req, res) => void this.#serve(req, res, stopped.signal));
      watchKeyPair({
        certFile: this.certFile,
        keyFile: this.keyFile,
        current: pair,
        onChange: (p) => server.setSecureContext({ ...p, minVersion: 'TLSv1.2' }),
        logger: this.#log,
        signal: stopped.signal,
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.#port, this.#host, () => {
          server.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      stopped.abort(err);
      this.#rejectListening(err);
      throw err;
    }
    const addr = server.address() as AddressInfo;
    const url = `https://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
    this.#bound = true;
    this.#log.info({ url, paths: [...this.#routes.keys()] }, 'serving webhooks');
    this.#resolveListening(url);
    await whenAborted(signal);
    this.#bound = false;
    stopped.abort(signal.reason);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  #route(path: string, route: Route): void {
    if (!path.startsWith('/')) throw new InvalidOptionError('webhook.path', `must start with "/", got ${JSON.stringify(path)}`);
    if (this.#routes.has(path)) throw new InvalidOptionError('webhook.path', `a webhook is already served at ${path}`);
    this.#routes.set(path, route);
  }

  async #serve(req: IncomingMessage, res: ServerResponse, stopped: AbortSignal): Promise<void> {
    const hangUp = new AbortController();
    res.once('close', () => hangUp.abort());
    try {
      const body = await readBody(req);
      const out =
        body === undefined
          ? text(413, `request body larger than ${MAX_REQUEST_BYTES} bytes\n`)
          : await this.handle({
              method: req.method ?? 'GET',
              path: new URL(req.url ?? '/', 'https://localhost').pathname,
              contentType: req.headers['content-type'],
              body,
              signal: AbortSignal.any([hangUp.signal, stopped]),
            });
      res.writeHead(out.status, { 'content-type': out.contentType, 'x-content-type-options': 'nosniff' });
      res.end(out.body);
    } catch (err) {
      this.#log.error({ path: req.url, err }, 'webhook request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal server error\n');
    }
  }
}

const text = (status: number, body: string): WebhookHttpResponse => ({ status, body, contentType: 'text/plain; charset=utf-8' });

/** The body as text, or undefined once it grows past the limit (the rest is drained, not kept). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
  }
  return size > MAX_REQUEST_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}
