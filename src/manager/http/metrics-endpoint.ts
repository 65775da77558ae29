/**
 * The metrics server's handler: `GET /metrics` (or `HEAD`) answers the registry in Prometheus' text
 * format. Invariant: only that one path is served; anything else is a 404, another method a 405.
 */
import type { Registry } from 'prom-client';
import type { HttpHandler } from './http-server.js';

export function metricsHandler(registry: Registry): HttpHandler {
  return async ({ method, url }) => {
    if (url.pathname !== '/metrics') return { status: 404, body: '404 page not found\n' };
    if (method !== 'GET' && method !== 'HEAD') return { status: 405, body: 'method not allowed\n' };
    return { status: 200, body: await registry.metrics(), contentType: registry.contentType };
  };
}
