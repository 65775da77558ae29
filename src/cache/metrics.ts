/**
 * Cache health metrics: the provider interface a metrics backend implements (the manager brings the
 * Prometheus one) and the no-op default. Same pattern as the workqueue's provider: each method is
 * called once per informer (or per handler) when it is built and returns a small object the cache
 * updates. Invariant: nothing on the ingest hot path calls a metric per event except counters of
 * rare things (connects, errors); gauges are set once per processed batch.
 *
 * | metric                     | updated                                                        |
 * |----------------------------|----------------------------------------------------------------|
 * | initial sync duration (s)  | once, when the first population has been processed              |
 * | watch connects             | every watch opened (the first one and every reconnect)          |
 * | watch errors by reason     | every failed list or watch: `gone`, `tooManyRequests`, `network`, `other` |
 * | last synced RV             | after each processed batch; the RV as an integer, last 15 digits |
 * | objects in store           | after each processed batch                                      |
 * | pending notifications      | per handler, when a drain round starts and ends                 |
 */
import type { CounterMetric, HistogramMetric, SettableGaugeMetric } from '../meta/index.js';
import type { WatchErrorReason } from './types.js';

export type { CounterMetric, HistogramMetric, SettableGaugeMetric };

/** @extension */
export interface CacheMetricsProvider {
  newInitialSyncDurationMetric(informer: string): HistogramMetric;
  newWatchConnectsMetric(informer: string): CounterMetric;
  newWatchErrorsMetric(informer: string, reason: WatchErrorReason): CounterMetric;
  newLastSyncedResourceVersionMetric(informer: string): SettableGaugeMetric;
  newStoreObjectsMetric(informer: string): SettableGaugeMetric;
  newPendingNotificationsMetric(informer: string, handler: string): SettableGaugeMetric;
}

const noop = (): void => {};
const noopCounter: CounterMetric = Object.freeze({ inc: noop });
const noopGauge: SettableGaugeMetric = Object.freeze({ set: noop });
const noopHistogram: HistogramMetric = Object.freeze({ observe: noop });

/** The default: every metric discards its updates. */
export const noopCacheMetricsProvider: CacheMetricsProvider = Object.freeze({
  newInitialSyncDurationMetric: () => noopHistogram,
  newWatchConnectsMetric: () => noopCounter,
  newWatchErrorsMetric: () => noopCounter,
  newLastSyncedResourceVersionMetric: () => noopGauge,
  newStoreObjectsMetric: () => noopGauge,
  newPendingNotificationsMetric: () => noopGauge,
});

/** A resourceVersion as a gauge value: its last 15 decimal digits (client-go's store RV metric); NaN-safe. */
export function resourceVersionGaugeValue(rv: string): number {
  const n = Number(rv.length > 15 ? rv.slice(-15) : rv);
  return Number.isFinite(n) ? n : 0;
}
