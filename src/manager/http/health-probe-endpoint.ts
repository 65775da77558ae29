/**
 * The health-probe server's handler: routes `/healthz[/<check>]` and `/readyz[/<check>]` to their
 * checks, `/debug/converge/…` to `explain`, and `/dashboard[/state]` to the dashboard when it is on. Invariant: every other path is a 404, and a probe
 * never reaches a check of the other kind (liveness and readiness stay separate).
 */
import type { NamespacedName, ResourceDescriptor } from '../../meta/index.js';
import type { ConvergeReport } from '../explain/index.js';
import { isDashboardPath, serveDashboard } from './dashboard-endpoint.js';
import type { DashboardSource } from './dashboard-state.js';
import { EXPLAIN_PATH_PREFIX, serveExplain } from './explain-endpoint.js';
import type { HealthChecks } from './health.js';
import type { HttpHandler } from './http-server.js';

export interface HealthProbeRoutes {
  healthz: HealthChecks;
  readyz: HealthChecks;
  /** The kinds `explain` answers for (the manager's controllers' and its cache's). */
  known: () => readonly ResourceDescriptor[];
  /** `cluster`: a member cluster's object (`?cluster=` on the path). */
  explain: (resource: ResourceDescriptor, nn: NamespacedName, signal: AbortSignal, cluster: string | undefined) => Promise<ConvergeReport>;
  /** The dashboard's facts; absent: the dashboard is off and its paths are 404s. */
  dashboard?: DashboardSource;
}

export function healthProbeHandler(routes: HealthProbeRoutes): HttpHandler {
  return async ({ method, url, signal }) => {
    if (url.pathname.startsWith(EXPLAIN_PATH_PREFIX)) {
      return serveExplain({
        method,
        pathname: url.pathname,
        cluster: url.searchParams.get('cluster') ?? undefined,
        known: routes.known,
        explain: (r, nn, cluster) => routes.explain(r, nn, signal, cluster),
      });
    }
    if (routes.dashboard && isDashboardPath(url.pathname)) {
      return serveDashboard(routes.dashboard, { method, pathname: url.pathname, signal });
    }
    const m = /^\/(healthz|readyz)(?:\/([^/]+))?\/?$/.exec(url.pathname);
    if (!m) return { status: 404, body: '404 page not found\n' };
    const checks = m[1] === 'healthz' ? routes.healthz : routes.readyz;
    return checks.handle({ name: m[2], query: url.searchParams, signal });
  };
}
