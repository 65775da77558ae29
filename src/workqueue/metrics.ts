/**
 * Queue metrics hooks: the provider interface a metrics backend implements (the manager brings the
 * Prometheus one), a no-op default, and the per-queue bookkeeping that turns queue events into
 * client-go's workqueue metrics at client-go's update points.
 *
 * | metric (Prometheus name)                       | update point                                         |
 * |------------------------------------------------|------------------------------------------------------|
 * | `workqueue_depth`                              | +1 on an add that makes an item newly dirty, −1 on get (and, for the priority queue, on shutdown for each item it will never hand out) |
 * | `workqueue_adds_total`                         | +1 on an add that makes an item newly dirty           |
 * | `workqueue_queue_duration_seconds`             | first add (kept once per item) → get                  |
 * | `workqueue_work_duration_seconds`              | get → done                                           |
 * | `workqueue_unfinished_work_seconds`            | sum of in-flight ages, every 500 ms                   |
 * | `workqueue_longest_running_processor_seconds`  | oldest in-flight age, every 500 ms                    |
 * | `workqueue_retries_total`                      | client-go queues: every addAfter; priority queue: delayed adds |
 *
 * Invariant: metrics are live only when the queue has a non-empty `name` and a provider other than
 * the no-op one (as in client-go); only then does the 500 ms unfinished-work timer exist.
 */
import type { Clock, CounterMetric, HistogramMetric, SettableGaugeMetric, Timer } from '../meta/index.js';

export type { CounterMetric, HistogramMetric, SettableGaugeMetric };

/** A gauge moved up and down (`workqueue_depth`). @extension */
export interface GaugeMetric {
  inc(): void;
  dec(): void;
}

/**
 * A depth gauge labelled by priority (controller-runtime's priority queue). The adapter owns the
 * label value: controller-runtime writes the priority as a decimal string and, once more than 25
 * distinct priorities were seen, `exceeded_cardinality_limit`.
 * @extension
 */
export interface PriorityGaugeMetric {
  inc(priority: number): void;
  dec(priority: number): void;
}

/**
 * Creates the metrics of one named queue. Each method is called once per queue, when the queue is
 * constructed, with the queue's `name` (controller-runtime labels both `name` and `controller` with it).
 * @extension
 */
export interface WorkqueueMetricsProvider {
  newDepthMetric(name: string): GaugeMetric;
  newAddsMetric(name: string): CounterMetric;
  /** `workqueue_queue_duration_seconds`: how long an item waited between its first add and `get`. */
  newLatencyMetric(name: string): HistogramMetric;
  /** `workqueue_work_duration_seconds`: how long an item took between `get` and `done`. */
  newWorkDurationMetric(name: string): HistogramMetric;
  newUnfinishedWorkSecondsMetric(name: string): SettableGaugeMetric;
  newLongestRunningProcessorSecondsMetric(name: string): SettableGaugeMetric;
  newRetriesMetric(name: string): CounterMetric;
  /**
   * Optional: the priority queue's depth by priority. When absent, the priority queue moves the
   * plain depth gauge instead.
   */
  newDepthMetricWithPriority?(name: string): PriorityGaugeMetric;
}

const noop = (): void => {};
const noopGauge: GaugeMetric & PriorityGaugeMetric = { inc: noop, dec: noop };
const noopSetter: SettableGaugeMetric = { set: noop };
const noopHistogram: HistogramMetric = { observe: noop };

/** The default provider: every metric is a no-op, and queues using it keep no metric state at all. */
export const noopMetricsProvider: WorkqueueMetricsProvider = Object.freeze({
  newDepthMetric: () => noopGauge,
  newAddsMetric: () => noopGauge,
  newLatencyMetric: () => noopHistogram,
  newWorkDurationMetric: () => noopHistogram,
  newUnfinishedWorkSecondsMetric: () => noopSetter,
  newLongestRunningProcessorSecondsMetric: () => noopSetter,
  newRetriesMetric: () => noopGauge,
  newDepthMetricWithPriority: () => noopGauge,
});

/** How often in-flight work is summed up (client-go's `defaultUnfinishedWorkUpdatePeriod`). */
export const UNFINISHED_WORK_UPDATE_PERIOD_MS = 500;

/**
 * The metric bookkeeping of one queue, keyed by item key. Internal to the workqueue layer: queues
 * call `add`/`get`/`done`/`retry` at the update points above; `undefined` stands for "metrics off".
 */
export class QueueMetrics {
  readonly #clock: Clock;
  readonly #depth: GaugeMetric;
  readonly #depthByPriority: PriorityGaugeMetric | undefined;
  readonly #adds: CounterMetric;
  readonly #latency: HistogramMetric;
  readonly #workDuration: HistogramMetric;
  readonly #unfinished: SettableGaugeMetric;
  readonly #longestRunning: SettableGaugeMetric;
  readonly #retries: CounterMetric;
  /** First add time per key, cleared by get. */
  readonly #addTimes = new Map<string, number>();
  /** get time per key, cleared by done. */
  readonly #processingStart = new Map<string, number>();
  #ticker: Timer | undefined;

  private constructor(name: string, provider: WorkqueueMetricsProvider, clock: Clock, withPriority: boolean) {
    this.#clock = clock;
    this.#depth = provider.newDepthMetric(name);
    this.#depthByPriority = withPriority ? provider.newDepthMetricWithPriority?.(name) : undefined;
    this.#adds = provider.newAddsMetric(name);
    this.#latency = provider.newLatencyMetric(name);
    this.#workDuration = provider.newWorkDurationMetric(name);
    this.#unfinished = provider.newUnfinishedWorkSecondsMetric(name);
    this.#longestRunning = provider.newLongestRunningProcessorSecondsMetric(name);
    this.#retries = provider.newRetriesMetric(name);
    this.#scheduleTick();
  }

  /**
   * Metrics for a queue, or undefined when they are off (no name, or no/no-op provider). A live
   * instance arms the 500 ms unfinished-work timer at once; `stop()` cancels it.
   */
  static create(options: {
    name: string | undefined;
    provider: WorkqueueMetricsProvider | undefined;
    clock: Clock;
    withPriority?: boolean;
  }): QueueMetrics | undefined {
    const { name, provider, clock } = options;
    if (!name || !provider || provider === noopMetricsProvider) return undefined;
    return new QueueMetrics(name, provider, clock, options.withPriority ?? false);
  }

  /** An add that made `key` newly dirty (or newly ready, for the priority queue). */
  add(key: string, priority = 0): void {
    this.#adds.inc();
    if (this.#depthByPriority) this.#depthByPriority.inc(priority);
    else this.#depth.inc();
    if (!this.#addTimes.has(key)) this.#addTimes.set(key, this.#clock.now());
  }

  /** `key` was handed to a worker. */
  get(key: string, priority = 0): void {
    if (this.#depthByPriority) this.#depthByPriority.dec(priority);
    else this.#depth.dec();
    const now = this.#clock.now();
    const added = this.#addTimes.get(key);
    if (added !== undefined) {
      this.#latency.observe((now - added) / 1000);
      this.#addTimes.delete(key);
    }
    this.#processingStart.set(key, now);
  }

  /** `key` was queued when its queue shut down and will never be handed out: it leaves the depth. */
  abandon(key: string, priority = 0): void {
    if (this.#depthByPriority) this.#depthByPriority.dec(priority);
    else this.#depth.dec();
    this.#addTimes.delete(key);
  }

  /** The worker handling `key` called done. */
  done(key: string): void {
    const started = this.#processingStart.get(key);
    if (started === undefined) return;
    this.#workDuration.observe((this.#clock.now() - started) / 1000);
    this.#processingStart.delete(key);
  }

  /** A ready item changed priority (priority queue only): move it between depth labels. */
  movePriority(from: number, to: number): void {
    if (!this.#depthByPriority) return;
    this.#depthByPriority.dec(from);
    this.#depthByPriority.inc(to);
  }

  retry(): void {
    this.#retries.inc();
  }

  /** Stops the unfinished-work timer (queue shutdown). */
  stop(): void {
    this.#ticker?.cancel();
    this.#ticker = undefined;
  }

  #scheduleTick(): void {
    this.#ticker = this.#clock.setTimer(() => {
      this.#updateUnfinishedWork();
      this.#scheduleTick();
    }, UNFINISHED_WORK_UPDATE_PERIOD_MS);
  }

  #updateUnfinishedWork(): void {
    const now = this.#clock.now();
    let total = 0;
    let oldest = 0;
    for (const started of this.#processingStart.values()) {
      const age = (now - started) / 1000;
      total += age;
      if (age > oldest) oldest = age;
    }
    this.#unfinished.set(total);
    this.#longestRunning.set(oldest);
  }
}
