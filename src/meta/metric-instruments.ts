/**
 * The three metric instruments a metrics backend hands Converge's cache and workqueue, defined once
 * for both: a counter that only increments, a gauge that is set, and a histogram of durations in
 * seconds. The manager brings Prometheus ones; anything with these methods will do.
 */

/** A counter that only ever increments (`workqueue_adds_total`, watch connects and errors). @extension */
export interface CounterMetric {
  inc(): void;
}

/** A gauge set to the current value (`workqueue_unfinished_work_seconds`, objects in a store). @extension */
export interface SettableGaugeMetric {
  set(value: number): void;
}

/** A histogram of durations in seconds (`workqueue_work_duration_seconds`, initial sync). @extension */
export interface HistogramMetric {
  observe(seconds: number): void;
}
