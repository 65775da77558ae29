/**
 * The HTTP transport: one keep-alive agent per client, the client-side rate limit, credentials from
 * the auth provider, request timeouts, and bounded retries. Every request passes through `#send`:
 *
 *   acquire token ─▶ credentials ─▶ http(s).request ─▶ 2xx ───────────────▶ caller
 *        ▲                                          ├─ 401 ─ refresh() once ─┤
 *        └──────────── clock.sleep(Retry-After) ◀───┼─ 429 (any verb: the server did no work)
 *                                                   └─ ECONNRESET/ECONNREFUSED… (GET and watch only)
 *
 * Invariants: a non-2xx answer that is not retried rejects with a `StatusError`; a failure below HTTP
 * rejects with a `NetworkError` naming method and URL; an aborted caller signal rejects with its
 * reason; every wait is on the injected clock; every attempt is reported to `onRequest`.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { performance } from 'node:perf_hooks';
import { InvalidOptionError, type Clock } from '../meta/index.js';
import { NetworkError, statusErrorFromResponse } from './errors.js';
import { HttpProxyAgent, HttpsProxyAgent } from './proxy-agent.js';
import { createRateLimiter, type ClientRateLimiter } from './rate-limiter.js';
import { secureContextFor } from './secure-contexts.js';
import type { SecureContext } from 'node:tls';
import type { Credentials, RestConfig } from './rest-config.js';
import { traceRequest } from './tracing.js';

/** One attempt, as reported to the metrics hook (`rest_client_requests_total{code,host,method}`). @extension */
export interface RequestMetric {
  verb: string;
  host: string;
  /** HTTP status as a string, or `<error>` when no answer came. */
  code: string;
  durationMs: number;
  /** The failure below HTTP (refused, reset, timed out) when `code` is `<error>`. */
  error?: unknown;
}

/** Options of a `Transport`: the `RestConfig`, the clock, how many times to retry, and a hook called once per request. */
export interface TransportOptions {
  config: RestConfig;
  clock: Clock;
  /** Retries after a 429 or a transient connection error; client-go's default is 10. */
  maxRetries?: number | undefined;
  onRequest?: ((m: RequestMetric) => void) | undefined;
}

/** One HTTP request to the API server, with its path below the server URL. */
export interface TransportRequest {
  method: string;
  /** Path and query below the server URL, starting with `/`. */
  path: string;
  body?: string | Buffer | undefined;
  contentType?: string | undefined;
  /** Default `application/json`. */
  accept?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** A complete HTTP answer from the API server, with its body read as text. */
export interface TransportResponse {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A response whose body is still flowing (watch); the caller owns `req` and must destroy it. */
export interface StreamingResponse {
  req: http.ClientRequest;
  res: http.IncomingMessage;
  method: string;
  url: string;
}

const DEFAULTS = { qps: 5, burst: 10, maxRetries: 10, timeoutMs: 0, retryAfterMs: 1000 } as const;
const TRANSIENT = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * A pooled keep-alive connection turned out closed by the server when reused (`ECONNRESET`/`EPIPE`
 * before any answer): the server never read the request, so one immediate retry on a fresh
 * connection is safe for idempotent requests and does not count as an attempt.
 */
class StaleConnectionError extends Error {
  override readonly name = 'StaleConnectionError';
  readonly code: string | undefined;
  constructor(readonly original: NodeJS.ErrnoException) {
    super(original.message, { cause: original });
    this.code = original.code;
  }
}

/** The request did not finish within the configured timeout. */
class RequestTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(ms: number) {
    super(`request timed out after ${ms} ms`);
  }
}

/** Sends requests to one API server with credentials, TLS, rate limiting, timeouts and bounded retries. */
export class Transport {
  readonly #config: RestConfig;
  readonly #base: URL;
  readonly #basePath: string;
  readonly #clock: Clock;
  readonly #limiter: ClientRateLimiter;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  readonly #onRequest: ((m: RequestMetric) => void) | undefined;
  readonly #agent: http.Agent;
  readonly #https: boolean;
  readonly #userAgent: string;

  constructor({ config, clock, maxRetries, onRequest }: TransportOptions) {
    let base: URL;
    try {
      base = new URL(config.server);
    } catch (cause) {
      throw new InvalidOptionError('server', `not a URL: ${JSON.stringify(config.server)} (${String(cause)})`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new InvalidOptionError('server', `must be http:// or https://, got ${config.server}`);
    }
    const qps = config.qps ?? DEFAULTS.qps;
    if (qps === 0 || Number.isNaN(qps)) throw new InvalidOptionError('qps', 'must be > 0, or -1/Infinity to disable rate limiting');
    this.#config = config;
    this.#base = base;
    this.#basePath = base.pathname.replace(/\/+$/, '');
    this.#clock = clock;
    this.#limiter = createRateLimiter({ qps, burst: config.burst ?? DEFAULTS.burst, clock });
    this.#maxRetries = maxRetries ?? DEFAULTS.maxRetries;
    this.#timeoutMs = config.timeoutMs ?? DEFAULTS.timeoutMs;
    this.#onRequest = onRequest;
    this.#https = base.protocol === 'https:';
    this.#userAgent = config.userAgent ?? `kube-converge/0.1.0 (node ${process.version})`;
    const agentOptions = { keepAlive: true };
    const proxy = config.proxyUrl ? parseProxy(config.proxyUrl) : undefined;
    if (proxy) this.#agent = this.#https ? new HttpsProxyAgent(proxy, agentOptions) : new HttpProxyAgent(proxy, agentOptions);
    else this.#agent = this.#https ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  }

  /** The server URL this transport talks to. */
  get server(): string {
    return this.#base.href;
  }

  /** Sends a request and reads the whole body; non-2xx rejects with a StatusError. Traced as one span. */
  request(r: TransportRequest): Promise<TransportResponse> {
    return traceRequest(this.#base, r.method.toUpperCase(), r.path, () => this.#request(r));
  }

  #request(r: TransportRequest): Promise<TransportResponse> {
    return this.#read(r, readBody);
  }

  /**
   * Sends a request and feeds a 2xx answer's body, chunk by chunk as it arrives, to `decoder`, whose
   * `end()` gives the result; non-2xx rejects with a StatusError. An error the decoder throws rejects
   * as is, after the request is destroyed. Traced as one span.
   */
  async requestDecoded<R>(r: TransportRequest, decoder: BodyDecoder<R>): Promise<R> {
    const answer = await traceRequest(this.#base, r.method.toUpperCase(), r.path, () => this.#read(r, (res) => decodeBody(res, decoder)));
    return answer.body;
  }

  async #read<B>(
    r: TransportRequest,
    read: (res: http.IncomingMessage) => Promise<B>,
  ): Promise<{ statusCode: number; headers: http.IncomingHttpHeaders; body: B }> {
    const { req, res, method, url, causeOf, done } = await this.#send(r, false);
    const statusCode = res.statusCode ?? 0;
    const ok = statusCode >= 200 && statusCode <= 299;
    let body: B | string;
    try {
      body = ok ? await read(res) : await readBody(res);
    } catch (err) {
      req.destroy();
      if (r.signal?.aborted) throw r.signal.reason;
      if (err instanceof DecodedBodyError) throw err.cause;
      throw new NetworkError(method, url, causeOf(err));
    } finally {
      done();
    }
    if (!ok) throw statusErrorFromResponse(statusCode, body as string, retryAfterSeconds(res));
    return { statusCode, headers: res.headers, body: body as B };
  }

  /**
   * Opens a streaming request (watch). Retries like a GET until a 2xx arrives; the request timeout
   * covers only the wait for the response headers. The caller owns the returned request. Traced as
   * one span that ends when the headers arrive.
   */
  stream(r: TransportRequest): Promise<StreamingResponse> {
    return traceRequest(this.#base, r.method.toUpperCase(), r.path, () => this.#stream(r));
  }

  async #stream(r: TransportRequest): Promise<StreamingResponse> {
    const { req, res, method, url, done } = await this.#send(r, true);
    done();
    const statusCode = res.statusCode ?? 0;
    if (statusCode >= 200 && statusCode <= 299) return { req, res, method, url };
    let body: string;
    try {
      body = await readBody(res);
    } catch (err) {
      req.destroy();
      throw new NetworkError(method, url, err);
    }
    throw statusErrorFromResponse(statusCode, body, retryAfterSeconds(res));
  }

  /** Frees pooled sockets. In-flight requests continue; new ones open fresh sockets. */
  close(): void {
    this.#agent.destroy();
  }

  async #send(
    r: TransportRequest,
    streaming: boolean,
  ): Promise<{
    req: http.ClientRequest;
    res: http.IncomingMessage;
    method: string;
    url: string;
    causeOf: (err: unknown) => unknown;
    done: () => void;
  }> {
    const method = r.method.toUpperCase();
    const url = this.#base.origin + this.#basePath + r.path;
    const idempotent = method === 'GET' || method === 'HEAD';
    let refreshed = false;
    let retriedStale = false;
    for (let attempt = 0; ; attempt++) {
      r.signal?.throwIfAborted();
      await this.#limiter.acquire({ signal: r.signal });
      let creds: Credentials | undefined;
      try {
        creds = await this.#config.auth?.credentials({ signal: r.signal });
      } catch (err) {
        if (r.signal?.aborted) throw r.signal.reason;
        throw err;
      }
      const started = performance.now();
      // Without a timeout the caller's signal is passed as is: no derived signal per request.
      const timeout = this.#timeoutMs > 0 ? new AbortController() : undefined;
      const timer = timeout
        ? this.#clock.setTimer(() => timeout.abort(new RequestTimeoutError(this.#timeoutMs)), this.#timeoutMs)
        : undefined;
      const signal = timeout && r.signal ? AbortSignal.any([r.signal, timeout.signal]) : (timeout?.signal ?? r.signal);
      let exchanged: { req: http.ClientRequest; res: http.IncomingMessage };
      try {
        exchanged = await this.#exchange(method, r, creds, signal);
      } catch (err) {
        timer?.cancel();
        // A stale keep-alive socket is retried at once below: not a failure to report.
        this.#report(method, '<error>', started, err instanceof StaleConnectionError ? undefined : err);
        if (r.signal?.aborted) throw r.signal.reason;
        if (err instanceof StaleConnectionError && idempotent && !retriedStale) {
          retriedStale = true;
          attempt--;
          continue;
        }
        const cause = timeout?.signal.aborted ? timeout.signal.reason : err instanceof StaleConnectionError ? err.original : err;
        if (idempotent && isTransient(cause) && attempt < this.#maxRetries) {
          await this.#clock.sleep(DEFAULTS.retryAfterMs, { signal: r.signal });
          continue;
        }
        throw new NetworkError(method, url, cause);
      }
      const { req, res } = exchanged;
      const code = res.statusCode ?? 0;
      this.#report(method, String(code), started);
      // A 401 may mean rotated credentials: refresh once and, if they changed, retry once.
      if (code === 401 && !refreshed && this.#config.auth?.refresh) {
        refreshed = true;
        if (await this.#config.auth.refresh()) {
          discard(req, res);
          timer?.cancel();
          attempt--;
          continue;
        }
      }
      if (code === 429 && attempt < this.#maxRetries) {
        discard(req, res);
        timer?.cancel();
        await this.#clock.sleep((retryAfterSeconds(res) ?? DEFAULTS.retryAfterMs / 1000) * 1000, { signal: r.signal });
        continue;
      }
      if (streaming) timer?.cancel();
      const causeOf = (e: unknown): unknown => (timeout?.signal.aborted ? timeout.signal.reason : e);
      return { req, res, method, url, causeOf, done: () => timer?.cancel() };
    }
  }

  #exchange(
    method: string,
    r: TransportRequest,
    creds: Credentials | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ req: http.ClientRequest; res: http.IncomingMessage }> {
    const headers: Record<string, string | string[]> = {
      accept: r.accept ?? 'application/json',
      'user-agent': this.#userAgent,
      ...creds?.headers,
    };
    if (r.body !== undefined) {
      headers['content-type'] = r.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(r.body));
    }
    // `secureContext` reaches tls.connect through the agent, though the request type does not list it.
    const options: https.RequestOptions & { secureContext?: SecureContext } = {
      method,
      protocol: this.#base.protocol,
      hostname: this.#base.hostname.replace(/^\[|\]$/g, ''),
      port: this.#base.port || (this.#https ? 443 : 80),
      path: this.#basePath + r.path,
      headers,
      agent: this.#agent,
      signal,
    };
    if (this.#https) {
      const tls = this.#config.tls;
      options.ca = tls?.ca;
      options.cert = creds?.cert ?? tls?.cert;
      options.key = creds?.key ?? tls?.key;
      options.rejectUnauthorized = !tls?.insecureSkipVerify;
      options.secureContext = secureContextFor(options.ca, options.cert, options.key);
      if (tls?.serverName) options.servername = tls.serverName;
    }
    return new Promise((resolve, reject) => {
      const req = (this.#https ? https : http).request(options, (res) => resolve({ req, res }));
      req.once('error', (err: NodeJS.ErrnoException) => {
        const stale = req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
        reject(stale ? new StaleConnectionError(err) : err);
      });
      req.end(r.body);
    });
  }

  #report(verb: string, code: string, started: number, error?: unknown): void {
    const durationMs = performance.now() - started;
    this.#onRequest?.({ verb, host: this.#base.host, code, durationMs, ...(error !== undefined ? { error } : {}) });
  }
}

function parseProxy(proxyUrl: string): URL {
  let u: URL;
  try {
    u = new URL(proxyUrl);
  } catch {
    throw new InvalidOptionError('proxyUrl', `not a URL: ${JSON.stringify(proxyUrl)}`);
  }
  if (u.protocol !== 'http:') throw new InvalidOptionError('proxyUrl', `only http:// proxies (CONNECT) are supported, got ${u.protocol}`);
  return u;
}

function isTransient(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && TRANSIENT.has(code);
}

/** Retry-After in seconds (delta-seconds form; an HTTP date falls back to the default delay). */
function retryAfterSeconds(res: http.IncomingMessage): number | undefined {
  const h = res.headers['retry-after'];
  if (h === undefined) return undefined;
  const n = Number(h);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Drops a response we will not read; the socket goes back to the pool once the body is consumed. */
function discard(req: http.ClientRequest, res: http.IncomingMessage): void {
  res.resume();
  res.once('error', () => req.destroy());
}

/** Takes a response body chunk by chunk and makes one result of it at the end. */
export interface BodyDecoder<R> {
  write(chunk: Buffer): void;
  end(): R;
}

/** A decoder's own error, carried past the network-error wrapping. */
class DecodedBodyError extends Error {
  constructor(override readonly cause: unknown) {
    super('the body decoder failed', { cause });
  }
}

async function decodeBody<R>(res: http.IncomingMessage, decoder: BodyDecoder<R>): Promise<R> {
  for await (const c of res) {
    try {
      decoder.write(c as Buffer);
    } catch (err) {
      throw new DecodedBodyError(err);
    }
  }
  try {
    return decoder.end();
  } catch (err) {
    throw new DecodedBodyError(err);
  }
}

async function readBody(res: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
