/**
 * Keep-alive agents that reach the API server through an HTTP proxy with `CONNECT` (kubeconfig
 * `proxy-url`). The tunnel is opened per pooled connection; for `https` servers TLS runs end to end
 * inside it, so the proxy never sees plaintext and certificate checks are unchanged. Invariant: a
 * tunnel that the proxy refuses fails the request with the proxy's status, never falls back to direct.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { Duplex } from 'node:stream';
import * as tls from 'node:tls';

type ConnectCallback = (err: Error | null, socket: Duplex) => void;

function openTunnel(proxy: URL, host: string, port: number, cb: (err: Error | null, socket?: Duplex) => void): void {
  const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const headers: Record<string, string> = { host: target };
  if (proxy.username) {
    const user = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
    headers['proxy-authorization'] = `Basic ${Buffer.from(user).toString('base64')}`;
  }
  const req = http.request({
    host: proxy.hostname.replace(/^\[|\]$/g, ''),
    // URL leaves `port` empty when it is the scheme's default; only http:// proxies are accepted.
    port: proxy.port === '' ? 80 : Number(proxy.port),
    method: 'CONNECT',
    path: target,
    headers,
  });
  req.once('connect', (res, socket) => {
    if (res.statusCode !== 200) {
      socket.destroy();
      cb(new Error(`proxy ${proxy.host} refused CONNECT ${target}: ${res.statusCode} ${res.statusMessage ?? ''}`));
      return;
    }
    cb(null, socket);
  });
  req.once('error', (err) => cb(err));
  req.end();
}

const targetOf = (options: http.ClientRequestArgs): { host: string; port: number } => ({
  host: (options.hostname ?? options.host ?? 'localhost').replace(/^\[|\]$/g, ''),
  port: Number(options.port),
});

/** An `http.Agent` whose connections are CONNECT tunnels through `proxy`. */
export class HttpProxyAgent extends http.Agent {
  constructor(
    readonly proxy: URL,
    options: http.AgentOptions,
  ) {
    super(options);
  }
  override createConnection(options: http.ClientRequestArgs, callback?: ConnectCallback): Duplex | null | undefined {
    const { host, port } = targetOf(options);
    openTunnel(this.proxy, host, port, (err, socket) => callback?.(err, socket as Duplex));
    return undefined;
  }
}

/** An `https.Agent` whose connections are TLS inside CONNECT tunnels through `proxy`. */
export class HttpsProxyAgent extends https.Agent {
  constructor(
    readonly proxy: URL,
    options: https.AgentOptions,
  ) {
    super(options);
  }
  override createConnection(options: https.RequestOptions, callback?: ConnectCallback): Duplex | null | undefined {
    const { host, port } = targetOf(options);
    openTunnel(this.proxy, host, port, (err, socket) => {
      if (err || !socket) {
        callback?.(err ?? new Error('proxy tunnel failed'), socket as Duplex);
        return;
      }
      const servername = options.servername ?? (host.includes(':') ? undefined : host);
      const secure = tls.connect({
        socket,
        servername,
        ca: options.ca,
        cert: options.cert,
        key: options.key,
        rejectUnauthorized: options.rejectUnauthorized,
      });
      const onError = (e: Error): void => callback?.(e, secure);
      secure.once('error', onError);
      secure.once('secureConnect', () => {
        secure.off('error', onError);
        callback?.(null, secure);
      });
    });
    return undefined;
  }
}
