/**
 * The HTTP face of the dashboard, served on the health-probe server when the manager's `dashboard`
 * option is on:
 *
 *     GET /dashboard         the page (HTML, everything inline)
 *     GET /dashboard/state   the snapshot it polls (JSON)
 *
 * Invariant: only these two paths and GET/HEAD are answered; the snapshot reads what the manager
 * already holds, so a page left open costs no API request.
 */
import { dashboardPage } from './dashboard-page.js';
import { dashboardSnapshot, type DashboardSource } from './dashboard-state.js';
import type { HttpResponse } from './http-server.js';

export const DASHBOARD_PATH = '/dashboard';
const STATE_PATH = `${DASHBOARD_PATH}/state`;

/** Whether `pathname` is the dashboard's. */
export function isDashboardPath(pathname: string): boolean {
  return pathname === DASHBOARD_PATH || pathname.startsWith(`${DASHBOARD_PATH}/`);
}

/** Answers a request for a path `isDashboardPath` accepted. */
export async function serveDashboard(
  source: DashboardSource,
  request: { method: string; pathname: string; signal: AbortSignal },
): Promise<HttpResponse> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return { status: 405, body: 'method not allowed\n' };
  if (request.pathname === DASHBOARD_PATH || request.pathname === `${DASHBOARD_PATH}/`) {
    return { status: 200, body: dashboardPage(STATE_PATH), contentType: 'text/html; charset=utf-8' };
  }
  if (request.pathname === STATE_PATH) {
    const snapshot = await dashboardSnapshot(source, request.signal);
    return { status: 200, body: JSON.stringify(snapshot), contentType: 'application/json' };
  }
  return { status: 404, body: `no such dashboard path; the page is ${DASHBOARD_PATH}\n` };
}
