// Test helpers: a WorkqueueMetricsProvider that records every update, a seeded PRNG, a microtask
// settle, and the backoff sequence a queue applies to one failing item.
import type { FakeClock } from 'kube-converge/meta';
import type { RateLimitingInterface, WorkqueueMetricsProvider } from 'kube-converge/workqueue';

export interface RecordedMetrics {
  depth: number;
  depthByPriority: Map<number, number>;
  adds: number;
  retries: number;
  latency: number[];
  workDuration: number[];
  unfinished: number[];
  longestRunning: number[];
  names: Set<string>;
}

export function recordingProvider(options: { withPriority?: boolean } = {}): { provider: WorkqueueMetricsProvider; m: RecordedMetrics } {
  const m: RecordedMetrics = {
    depth: 0,
    depthByPriority: new Map(),
    adds: 0,
    retries: 0,
    latency: [],
    workDuration: [],
    unfinished: [],
    longestRunning: [],
    names: new Set(),
  };
  const named = <X>(name: string, x: X): X => (m.names.add(name), x);
  const provider: WorkqueueMetricsProvider = {
    newDepthMetric: (n) => named(n, { inc: () => void m.depth++, dec: () => void m.depth-- }),
    newAddsMetric: (n) => named(n, { inc: () => void m.adds++ }),
    newLatencyMetric: (n) => named(n, { observe: (s: number) => void m.latency.push(s) }),
    newWorkDurationMetric: (n) => named(n, { observe: (s: number) => void m.workDuration.push(s) }),
    newUnfinishedWorkSecondsMetric: (n) => named(n, { set: (v: number) => void m.unfinished.push(v) }),
    newLongestRunningProcessorSecondsMetric: (n) => named(n, { set: (v: number) => void m.longestRunning.push(v) }),
    newRetriesMetric: (n) => named(n, { inc: () => void m.retries++ }),
  };
  if (options.withPriority) {
    provider.newDepthMetricWithPriority = (n) =>
      named(n, {
        inc: (p: number) => void m.depthByPriority.set(p, (m.depthByPriority.get(p) ?? 0) + 1),
        dec: (p: number) => void m.depthByPriority.set(p, (m.depthByPriority.get(p) ?? 0) - 1),
      });
  }
  return { provider, m };
}

/** A small deterministic PRNG (mulberry32) so randomised tests replay exactly. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lets pending promise callbacks run. */
export async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

/**
 * Fails `item` `times` times in a row (addRateLimited, wait the delay on `clock`, get, done) and
 * returns each delay the queue armed its timer for.
 */
export async function rateLimitedDelays(o: {
  queue: RateLimitingInterface<string>;
  clock: FakeClock;
  item: string;
  times: number;
}): Promise<number[]> {
  const { queue: q, clock, item, times } = o;
  const delays: number[] = [];
  for (let i = 0; i < times; i++) {
    q.addRateLimited(item);
    delays.push(clock.nextTimerAt()! - clock.now());
    await clock.advance(delays.at(-1)!);
    const r = await q.get();
    q.done(r.item!);
  }
  return delays;
}
