/**
 * Manager metrics: one prom-client `Registry` per manager holding controller-runtime's families —
 * `controller_runtime_*` (controller-metrics.ts), `workqueue_*` (workqueue-metrics.ts),
 * `rest_client_requests_total{code,method,host}` (always registered, fed by the client's response
 * hook), `leader_election_master_status{name}` — plus Node's process and runtime collectors (the
 * counterpart of Go's). Invariant: nothing is registered on prom-client's global registry, so any
 * number of managers can live in one process.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { ControllerMetrics } from '../../controller/index.js';
import type { WorkqueueMetricsProvider } from '../../workqueue/index.js';
import { createControllerMetrics } from './controller-metrics.js';
import { createWorkqueueMetrics } from './workqueue-metrics.js';

/** One manager's Prometheus registry, with the reporting sides the controllers, queues and client feed. */
export interface ManagerMetrics {
  /** The registry `/metrics` serves; register your own collectors on it. */
  readonly registry: Registry;
  readonly controller: ControllerMetrics;
  readonly workqueue: WorkqueueMetricsProvider;
  /** Counts one finished HTTP request (`code` is the status code, or `<error>` without an answer). */
  restClientRequest(request: { code: string; method: string; host: string }): void;
  /** `leader_election_master_status{name}`: 1 while this process leads `name`, else 0. */
  leaderElectionStatus(name: string, leading: boolean): void;
}

/**
 * Creates a manager's Prometheus registry with controller-runtime's metric families registered, and
 * Node's process metrics unless `processMetrics` is false (a fleet's member managers, whose registries
 * are never served, would each sample the event loop for nothing).
 */
export function createManagerMetrics(options: { processMetrics?: boolean } = {}): ManagerMetrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'rest_client_requests_total',
    help: 'Number of HTTP requests, partitioned by status code, method, and host.',
    labelNames: ['code', 'method', 'host'] as const,
    registers: [registry],
  });
  const leader = new Gauge({
    name: 'leader_election_master_status',
    help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
    labelNames: ['name'] as const,
    registers: [registry],
  });
  return Object.freeze({
    registry,
    controller: createControllerMetrics(registry),
    workqueue: createWorkqueueMetrics(registry),
    restClientRequest: ({ code, method, host }: { code: string; method: string; host: string }) => requests.inc({ code, method, host }),
    leaderElectionStatus: (name: string, leading: boolean) => leader.set({ name }, leading ? 1 : 0),
  });
}
