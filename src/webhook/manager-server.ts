/**
 * One webhook server per manager, made on first use and registered with it: started with the
 * manager's HTTP servers, its readiness behind the manager's `/readyz` as the `webhook` check.
 * Invariant: a manager never gets two webhook servers, and options can only shape the first one.
 */
import { InvalidOptionError } from '../meta/index.js';
import type { Manager } from '../manager/index.js';
import { WebhookServer, type WebhookServerOptions } from './webhook-server.js';

const servers = new WeakMap<Manager, WebhookServer>();

/**
 * The webhook server of `mgr`, made with `options` on the first call (before `mgr.start()`); later
 * calls return it and refuse new options.
 */
export function webhookServerFor(mgr: Manager, options?: WebhookServerOptions): WebhookServer {
  const existing = servers.get(mgr);
  if (existing) {
    if (options)
      throw new InvalidOptionError('webhookServerFor', 'this manager already has a webhook server; pass options on the first call only');
    return existing;
  }
  const server = new WebhookServer({ logger: mgr.logger, ...options });
  mgr.addWebhookServer(server);
  mgr.addReadyzCheck('webhook', server.startedCheck());
  servers.set(mgr, server);
  return server;
}
