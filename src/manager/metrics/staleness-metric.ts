/**
 * `converge_informer_staleness_seconds{resource}`: per cached kind, the time since its cache was last
 * known to hold everything the API server held (see the manager's staleness monitor). Computed when
 * scraped, so a frozen watch shows its real age at every scrape, not the age at the last sample.
 * Invariant: a kind with nothing to judge yet (not synced) has no series.
 */
import { Gauge, type Registry } from 'prom-client';

/** Registers the gauge on `registry`; `read` lists each kind's staleness in ms (undefined: unknown). */
export function createStalenessMetric(registry: Registry, read: () => { resource: string; stalenessMs: number | undefined }[]): void {
  new Gauge({
    name: 'converge_informer_staleness_seconds',
    help: "Seconds since the informer of 'resource' was last known to hold everything the API server held (a consistent LIST's resourceVersion reached by the watch).",
    labelNames: ['resource'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const r of read()) if (r.stalenessMs !== undefined) this.set({ resource: r.resource }, r.stalenessMs / 1000);
    },
  });
}
