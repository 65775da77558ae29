// The manager's HTTP side: the server runnable, health checks, and the explain endpoint served on the
// health-probe server.
export { HttpServerRunnable, parseBindAddress } from './http-server.js';
export type { HttpHandler, HttpResponse } from './http-server.js';
export { HealthChecks, ping } from './health.js';
export type { HealthCheck, HealthResponse } from './health.js';
export { EXPLAIN_PATH_PREFIX, parseExplainPath, serveExplain } from './explain-endpoint.js';
