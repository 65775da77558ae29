/**
 * Workqueue metrics: the Prometheus implementation of the workqueue layer's
 * `WorkqueueMetricsProvider`, with controller-runtime's `workqueue_*` names, its `name` and
 * `controller` labels (both the queue name) and its buckets (exponential from 1e-8 s, factor 10,
 * 12 buckets). `workqueue_depth` carries a `priority` label as in controller-runtime's priority
 * queue; plain queues report `priority=""`. Invariant: at most 25 distinct priority label values per
 * queue, further priorities are counted under `exceeded_cardinality_limit`.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { WorkqueueMetricsProvider } from '../../workqueue/index.js';

/** exponential(1e-8, 10, 12): 10 ns … 1000 s. */
export const WORKQUEUE_DURATION_BUCKETS: readonly number[] = Object.freeze(Array.from({ length: 12 }, (_, i) => Number(`1e${i - 8}`)));

/** How many distinct priorities one queue may label before they are folded together. */
const PRIORITY_CARDINALITY_LIMIT = 25;
const OVER_LIMIT = 'exceeded_cardinality_limit';

export function createWorkqueueMetrics(registry: Registry): WorkqueueMetricsProvider {
  const reg = [registry];
  const labelNames = ['name', 'controller'] as const;
  const depth = new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue by workqueue and priority',
    labelNames: ['name', 'controller', 'priority'] as const,
    registers: reg,
  });
  const adds = new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames, registers: reg });
  const latency = new Histogram({
    name: 'workqueue_queue_duration_seconds',
    help: 'How long in seconds an item stays in workqueue before being requested',
    labelNames,
    buckets: [...WORKQUEUE_DURATION_BUCKETS],
    registers: reg,
  });
  const work = new Histogram({
    name: 'workqueue_work_duration_seconds',
    help: 'How long in seconds processing an item from workqueue takes.',
    labelNames,
    buckets: [...WORKQUEUE_DURATION_BUCKETS],
    registers: reg,
  });
  const unfinished = new Gauge({
    name: 'workqueue_unfinished_work_seconds',
    help:
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. " +
      'Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.',
    labelNames,
    registers: reg,
  });
  const longest = new Gauge({
    name: 'workqueue_longest_running_processor_seconds',
    help: 'How many seconds has the longest running processor for workqueue been running.',
    labelNames,
    registers: reg,
  });
  const retries = new Counter({
    name: 'workqueue_retries_total',
    help: 'Total number of retries handled by workqueue',
    labelNames,
    registers: reg,
  });

  const labels = (name: string) => ({ name, controller: name });
  // One shape per kind of series. Counters and gauges start at zero, so a scrape shows a queue's
  // series before its first add instead of leaving them missing.
  const counter = (family: Counter<'name' | 'controller'>) => (name: string) => {
    const c = family.labels(labels(name));
    c.inc(0);
    return { inc: () => c.inc() };
  };
  const histogram = (family: Histogram<'name' | 'controller'>) => (name: string) => {
    const h = family.labels(labels(name));
    return { observe: (s: number) => h.observe(s) };
  };
  const settable = (family: Gauge<'name' | 'controller'>) => (name: string) => {
    const g = family.labels(labels(name));
    g.set(0);
    return { set: (v: number) => g.set(v) };
  };
  return Object.freeze({
    newDepthMetric: (name) => {
      const g = depth.labels({ ...labels(name), priority: '' });
      g.set(0);
      return { inc: () => g.inc(), dec: () => g.dec() };
    },
    newDepthMetricWithPriority: (name) => {
      const seen = new Set<string>();
      const label = (priority: number): string => {
        const p = String(priority);
        if (seen.has(p)) return p;
        if (seen.size >= PRIORITY_CARDINALITY_LIMIT) return OVER_LIMIT;
        seen.add(p);
        return p;
      };
      return {
        inc: (priority) => depth.inc({ ...labels(name), priority: label(priority) }),
        dec: (priority) => depth.dec({ ...labels(name), priority: label(priority) }),
      };
    },
    newAddsMetric: counter(adds),
    newLatencyMetric: histogram(latency),
    newWorkDurationMetric: histogram(work),
    newUnfinishedWorkSecondsMetric: settable(unfinished),
    newLongestRunningProcessorSecondsMetric: settable(longest),
    newRetriesMetric: counter(retries),
  } satisfies WorkqueueMetricsProvider);
}
