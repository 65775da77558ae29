/**
 * One call of a webhook over HTTPS, as kube-apiserver makes it: POST the review as JSON to the
 * `clientConfig` (a `url`, or a `service` resolved to an address by the caller), trusting the
 * `caBundle` when there is one, cut after the timeout measured on the server's clock. Invariant: the
 * call either returns the parsed JSON body of a 200 answer or throws one error saying why (refused,
 * timed out, not 200, not JSON); the request is always aborted and its timer freed.
 */
import { request } from 'node:https';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import type { Clock } from '../meta/index.js';

/** A webhook's `clientConfig`. */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** Base64 of the PEM CA bundle. */
  caBundle?: string;
}

/** Resolves a Service reference to a base URL (`https://host:port`), or undefined when it has no endpoint. */
export type ServiceResolver = (service: { namespace: string; name: string; port: number }) => string | undefined;

/**
 * The URL a clientConfig points at, and the name its certificate must carry: the URL's host, or for
 * a Service `<name>.<namespace>.svc` (what kube-apiserver verifies) whatever address it resolves to.
 */
export function webhookUrl(config: WebhookClientConfig, resolve: ServiceResolver | undefined): { url: string; servername?: string } {
  if (config.url) return { url: config.url };
  const s = config.service;
  if (!s) throw new Error('clientConfig has neither url nor service');
  const port = s.port ?? 443;
  const base = resolve?.({ namespace: s.namespace, name: s.name, port });
  if (!base) throw new Error(`service "${s.name}" in namespace "${s.namespace}" (port ${port}) has no endpoint`);
  return { url: `${base.replace(/\/$/, '')}${s.path ?? ''}`, servername: `${s.name}.${s.namespace}.svc` };
}

/** POSTs `body` to the webhook and returns the decoded JSON answer. */
export async function callWebhook(options: {
  config: WebhookClientConfig;
  body: unknown;
  timeoutMs: number;
  clock: Clock;
  resolveService?: ServiceResolver | undefined;
}): Promise<unknown> {
  const { url, servername } = webhookUrl(options.config, options.resolveService);
  if (!url.startsWith('https://')) throw new Error(`webhook URL must use https: ${url}`);
  const ca = options.config.caBundle ? Buffer.from(options.config.caBundle, 'base64').toString('utf8') : undefined;
  const ctl = new AbortController();
  const timer = options.clock.setTimer(
    () => ctl.abort(new Error(`context deadline exceeded (timeout ${options.timeoutMs / 1000}s)`)),
    options.timeoutMs,
  );
  try {
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          ca,
          ...(servername
            ? { servername, checkServerIdentity: (_host: string, cert: PeerCertificate) => checkServerIdentity(servername, cert) }
            : {}),
          signal: ctl.signal,
          agent: false,
          headers: { 'content-type': 'application/json', accept: 'application/json' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', (err) => reject(ctl.signal.aborted ? ctl.signal.reason : err));
      req.end(JSON.stringify(options.body));
    });
    if (status !== 200) throw new Error(`the server responded with status ${status}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error('the webhook response is not JSON');
    }
  } finally {
    timer.cancel();
    ctl.abort();
  }
}
