// The manager's HTTP side: the server runnable, health checks, and the handlers of its two servers —
// `/metrics` on the metrics server; `/healthz`, `/readyz` and the explain endpoint on the health-probe server.
export { HttpServerRunnable, parseBindAddress } from './http-server.js';
export type { HttpHandler, HttpResponse } from './http-server.js';
export { HealthChecks, ping } from './health.js';
export type { HealthCheck, HealthResponse } from './health.js';
export { EXPLAIN_PATH_PREFIX, parseExplainPath } from './explain-endpoint.js';
export { metricsHandler } from './metrics-endpoint.js';
export { healthProbeHandler } from './health-probe-endpoint.js';
export { DASHBOARD_PATH } from './dashboard-endpoint.js';
export type { DashboardSource, DashboardSnapshot, ControllerSnapshot, KindSnapshot } from './dashboard-state.js';
export type { HealthProbeRoutes } from './health-probe-endpoint.js';
