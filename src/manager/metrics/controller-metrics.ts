/**
 * Controller metrics: controller-runtime's `controller_runtime_*` families on one prom-client
 * registry, behind the `ControllerMetrics` interface the controller layer reports through. Names,
 * label sets and histogram buckets are controller-runtime's, so its dashboards and alerts work
 * unchanged. Invariant: every family is registered on the manager's own registry, never on
 * prom-client's global one, so two managers in one process never collide.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { ControllerMetrics } from '../../controller/index.js';

/** controller-runtime's `reconcile_time_seconds` buckets: 5 ms … 60 s, 40 of them. */
export const RECONCILE_TIME_BUCKETS: readonly number[] = Object.freeze([
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5,
  4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
]);

const RESULTS = ['success', 'error', 'requeue', 'requeue_after'] as const;

/** Creates the `controller_runtime_*` families on `registry` and returns the reporting side. */
export function createControllerMetrics(registry: Registry): ControllerMetrics {
  const reg = [registry];
  const total = new Counter({
    name: 'controller_runtime_reconcile_total',
    help: 'Total number of reconciliations per controller',
    labelNames: ['controller', 'result'] as const,
    registers: reg,
  });
  // The four per-controller counters differ only in name and help text.
  const perController = (name: string, help: string) => new Counter({ name, help, labelNames: ['controller'] as const, registers: reg });
  const errors = perController('controller_runtime_reconcile_errors_total', 'Total number of reconciliation errors per controller');
  const terminal = perController(
    'controller_runtime_terminal_reconcile_errors_total',
    'Total number of terminal reconciliation errors per controller',
  );
  const panics = perController('controller_runtime_reconcile_panics_total', 'Total number of reconciliation panics per controller');
  const timeouts = perController('controller_runtime_reconcile_timeouts_total', 'Total number of reconciliation timeouts per controller');
  // Ours, not controller-runtime's: reconciles let through by the read-your-writes timeout.
  const rywTimeouts = perController(
    'converge_read_your_writes_timeouts_total',
    "Total number of reconciles started before the cache observed the previous reconcile's writes, per controller",
  );
  const time = new Histogram({
    name: 'controller_runtime_reconcile_time_seconds',
    help: 'Length of time per reconciliation per controller',
    labelNames: ['controller'] as const,
    buckets: [...RECONCILE_TIME_BUCKETS],
    registers: reg,
  });
  const perControllerGauge = (name: string, help: string) => new Gauge({ name, help, labelNames: ['controller'] as const, registers: reg });
  const maxConcurrent = perControllerGauge(
    'controller_runtime_max_concurrent_reconciles',
    'Maximum number of concurrent reconciles per controller',
  );
  const active = perControllerGauge('controller_runtime_active_workers', 'Number of currently used workers per controller');

  return Object.freeze({
    reconcileTotal: (controller, result) => total.inc({ controller, result }),
    reconcileErrors: (controller) => errors.inc({ controller }),
    terminalReconcileErrors: (controller) => terminal.inc({ controller }),
    reconcilePanics: (controller) => panics.inc({ controller }),
    reconcileTimeouts: (controller) => timeouts.inc({ controller }),
    readYourWritesTimeouts: (controller) => rywTimeouts.inc({ controller }),
    reconcileTime: (controller, seconds) => time.observe({ controller }, seconds),
    maxConcurrentReconciles: (controller, n) => {
      // Called once when a controller starts. controller-runtime initialises every series of a
      // controller then, so a scrape shows zeros instead of missing series before the first reconcile.
      for (const result of RESULTS) total.inc({ controller, result }, 0);
      errors.inc({ controller }, 0);
      terminal.inc({ controller }, 0);
      panics.inc({ controller }, 0);
      timeouts.inc({ controller }, 0);
      rywTimeouts.inc({ controller }, 0);
      active.set({ controller }, 0);
      maxConcurrent.set({ controller }, n);
    },
    activeWorkers: (controller, delta) => active.inc({ controller }, delta),
  } satisfies ControllerMetrics);
}
