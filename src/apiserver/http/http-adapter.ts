/**
 * The only file that knows about sockets: serves an `ApiServer` over HTTPS (or, when no serving
 * certificate is given, plain HTTP). It authenticates each request before reading its body
 * (401 Unauthorized otherwise), reads bodies up to 3 MiB (413 beyond), hands the core a plain
 * request, writes plain responses (gzip-compressed above 128 KiB when asked, as kube-apiserver
 * compresses them), and streams watch responses chunk by chunk with back-pressure
 * reported to the watcher. Keep-alive is on. Invariant: no request, however malformed, crashes the
 * process; none reaches the core unauthenticated, and each carries the user it authenticated as
 * (the core authorizes it); a client going away frees its watch; a connection that does not finish
 * a request's headers within the headers timeout is answered 408 and closed, over either transport.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { createSecureContext, TLSSocket, type SecureContext } from 'node:tls';
import { InvalidOptionError } from '../../meta/index.js';
import { requireInt } from '../../meta/internal.js';
import type { ApiServer } from '../api-server.js';
import { adminTokenAuthenticator } from '../authentication/index.js';
import type { ApiRequest, ApiResponse } from '../wire/index.js';
import type { UserInfo } from '../ground/index.js';
import { compressResponse } from './compression.js';
import { errorResponse, statusResponse } from '../wire/index.js';
import { tooLarge, unauthorized } from '../ground/index.js';

/** The longest a whole request (headers and body) may take to arrive: Node's default, which a headers timeout may not exceed. */
const REQUEST_TIMEOUT_MS = 300_000;

/** The largest request body read (3 MiB, as kube-apiserver); a longer one gets 413 without reaching the core. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** A server `listen` started: the bound `port` (the real one when 0 was asked for), and `close`, which resolves once every socket is closed. @extension */
export interface Listening {
  /** The HTTP server requests are served by (over HTTPS it is handed each connection by a TLS listener). */
  server: Server;
  port: number;
  host: string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer | 'tooLarge'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      req.resume();
      resolve('tooLarge');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? 'tooLarge' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function writeResponse(res: ServerResponse, r: ApiResponse, head: boolean): void {
  if (!r.stream) {
    const body = r.bytes ?? r.body;
    res.writeHead(r.status, { ...r.headers, 'content-length': Buffer.byteLength(body) });
    res.end(head ? undefined : body);
    return;
  }
  const stream = r.stream;
  res.writeHead(r.status, { ...r.headers, 'transfer-encoding': 'chunked', 'cache-control': 'no-cache, private' });
  res.flushHeaders();
  let ended = false;
  const onDrain = (): void => stream.drained();
  const onClose = (): void => {
    res.off('drain', onDrain);
    if (!ended) stream.detach();
  };
  res.on('drain', onDrain);
  res.on('close', onClose);
  stream.attach({
    write: (chunk) => res.write(chunk),
    end: () => {
      ended = true;
      res.end();
    },
  });
}

async function serve(api: ApiServer, req: IncomingMessage, res: ServerResponse, user: UserInfo): Promise<void> {
  const body = await readBody(req);
  if (body === 'tooLarge') {
    res.setHeader('connection', 'close');
    writeResponse(res, statusResponse(tooLarge(`limit is ${MAX_BODY_BYTES}`).status), false);
    return;
  }
  const apiReq: ApiRequest = {
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    headers: req.headers,
    user,
    ...(body.length > 0 ? { body } : {}),
  };
  const r = await compressResponse(await api.handle(apiReq), apiReq.path, req.headers['accept-encoding']);
  writeResponse(res, r, req.method === 'HEAD');
}

export interface ListenOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Serving certificate and key (PEM) for HTTPS; absent = plain HTTP. */
  tls?: { cert: string; key: string };
  /** The bearer token every request must carry (health and version excepted: see auth/admin-token.ts). */
  adminToken: string;
  /**
   * How long a connection may take to send a request's headers, from its first byte (or from
   * accepting it) to the blank line, before it is answered 408 and closed (default 60 000, Node's;
   * at most 300 000, the whole request's limit).
   */
  headersTimeoutMs?: number;
}

/** Listens on `host:port` (port 0 = any free port). @extension */
export function listen(
  api: ApiServer,
  { port = 0, host = '127.0.0.1', tls, adminToken, headersTimeoutMs = 60_000 }: ListenOptions,
): Promise<Listening> {
  requireInt('headersTimeoutMs', headersTimeoutMs, { min: 1 });
  if (headersTimeoutMs > REQUEST_TIMEOUT_MS)
    throw new InvalidOptionError('headersTimeoutMs', `must be at most the request timeout, ${REQUEST_TIMEOUT_MS}, got ${headersTimeoutMs}`);
  const authenticate = adminTokenAuthenticator(adminToken, (token) => api.authenticateToken(token));
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const user = authenticate(req.url ?? '/', req.headers.authorization);
    if (!user) {
      req.resume(); // the body is not read, only drained, so the connection stays usable
      writeResponse(res, statusResponse(unauthorized().status), req.method === 'HEAD');
      return;
    }
    serve(api, req, res, user).catch((err: unknown) => {
      if (res.headersSent) res.destroy();
      else writeResponse(res, errorResponse(err), false);
    });
  };
  // Node checks each connection's headers (and whole-request) deadline every connectionsCheckingInterval,
  // so a connection is closed between one and one and a half headers timeouts in: Node's own 60 s and 30 s.
  const server: Server = createHttpServer(
    {
      keepAlive: true,
      keepAliveTimeout: 65_000,
      headersTimeout: headersTimeoutMs,
      requestTimeout: REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.ceil(headersTimeoutMs / 2),
    },
    handler,
  );
  const listener = tls ? tlsListener(server, tls) : server;
  // The HTTP server tracks its connections (the headers and request timeouts, closeAllConnections)
  // from its 'listening' event on, which it never has behind the TLS listener: it is given the
  // listener's, before the listener can accept anything.
  if (listener !== server) listener.once('listening', () => server.emit('listening'));
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    // Destroyed once the answer is out: a client that never closes its side must not keep the socket.
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\n\r\n`, () => socket.destroy());
    else socket.destroy();
  });
  return new Promise((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, host, () => {
      listener.off('error', reject);
      const addr = listener.address() as AddressInfo;
      resolve({
        server,
        port: addr.port,
        host,
        close: () =>
          new Promise<void>((res) => {
            listener.close(() => res());
            if (listener !== server) server.close(); // stops its connection checks, as the listener's close does for plain HTTP
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** One TLS context per serving certificate and key in the process: making one costs milliseconds, more than a whole in-process start. */
const secureContexts = new Map<string, SecureContext>();

/**
 * The socket that accepts HTTPS for `server`: each connection is wrapped in TLS with the cached
 * context and handed to the HTTP server, as `node:https` does, except that `node:https` makes a new
 * context for every server it creates.
 */
function tlsListener(server: Server, tls: { cert: string; key: string }): NetServer {
  const id = `${tls.cert}\0${tls.key}`;
  let secureContext = secureContexts.get(id);
  if (!secureContext) secureContexts.set(id, (secureContext = createSecureContext({ cert: tls.cert, key: tls.key })));
  const context = secureContext;
  return createNetServer((raw) => {
    raw.on('error', () => raw.destroy()); // a reset before the handshake; after it, the HTTP server's error handling takes over
    server.emit('connection', new TLSSocket(raw, { isServer: true, secureContext: context, ALPNProtocols: ['http/1.1'] }));
  });
}
