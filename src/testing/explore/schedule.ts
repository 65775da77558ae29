/**
 * Fault schedules: what goes wrong, and when, in one run of the explorer. A schedule is a short list
 * of faults drawn from a seed by a small deterministic generator, so the same seed always gives the
 * same schedule, on any machine. Most faults name the n-th write the operator sends (counted from
 * the start of the run, across restarts), so they hit the same step of the operator's logic whatever
 * the timing; watch cuts name a moment on the run's fake clock. Invariant: `scheduleFor` is a pure
 * function of its arguments, and `describeFault` says in one line what a fault does.
 */

/** The kinds of fault the explorer injects. */
export type FaultKind =
  | 'cacheLag'
  | 'watchCut'
  | 'concurrentWrite'
  | 'tooManyRequests'
  | 'writeTimeout'
  | 'lostResponse'
  | 'crash'
  | 'leaseLoss'
  | 'dependencyTimeout'
  | 'staleRestart';

/**
 * The fault kinds `explore` draws from by default. A kind added later (`staleRestart`) is named in
 * `faults` to be drawn, so that a seed keeps naming the same schedule from one version to the next.
 */
export const FAULT_KINDS: readonly FaultKind[] = Object.freeze([
  'cacheLag',
  'watchCut',
  'concurrentWrite',
  'tooManyRequests',
  'writeTimeout',
  'lostResponse',
  'crash',
  'leaseLoss',
  'dependencyTimeout',
]);

/** One fault of a schedule. */
export type Fault =
  /**
   * Watch events are held `lagMs` before the operator's cache sees them, for `forMs` from the moment
   * write #`write` is sent: the events of every kind, or of the `watch`-th kind the operator watched
   * (kinds lag unevenly in a cluster). Tied to a write, like the other faults, so it meets the same
   * step of the operator's logic in every replay.
   */
  | { readonly kind: 'cacheLag'; readonly write: number; readonly forMs: number; readonly lagMs: number; readonly watch?: number }
  /** Every open watch ends at `atMs`; with `relist`, history is compacted first, so re-watching gets 410 Gone. */
  | { readonly kind: 'watchCut'; readonly atMs: number; readonly relist: boolean }
  /** Another writer changes the object just before write #`write`: a 409 if that write carries its resourceVersion. */
  | { readonly kind: 'concurrentWrite'; readonly write: number }
  /** Write #`write` is refused with 429 Too Many Requests and a Retry-After of one second; nothing is applied. */
  | { readonly kind: 'tooManyRequests'; readonly write: number }
  /** Write #`write` times out: the server answers 504 Timeout without applying it. */
  | { readonly kind: 'writeTimeout'; readonly write: number }
  /** Write #`write` is applied, but its response is lost: the operator sees a network error. */
  | { readonly kind: 'lostResponse'; readonly write: number }
  /** The manager crashes after write #`write - 1` and before write #`write`, and a new one starts. */
  | { readonly kind: 'crash'; readonly write: number }
  /**
   * From write #`write` on, the manager leading then cannot renew its Lease (its other requests go
   * through): it must stop once its renew deadline passed, and a standby manager, started at that
   * moment, takes over once the lease expired. Managers elect a leader only in schedules with this fault.
   */
  | { readonly kind: 'leaseLoss'; readonly write: number }
  /** Call #`call` to an external dependency (`ExploreContext.dependency`) times out without effect. */
  | { readonly kind: 'dependencyTimeout'; readonly call: number }
  /**
   * The manager crashes just before write #`write`, and the new one reads from a view of the API
   * server that lags behind the one that took the writes: its fresh cache lists the cluster as it was
   * just before write #`from` (`from` ≤ `write`, so the crashed manager's writes #`from`…#`write - 1`
   * are not in it), and the watch events that bring it up to date reach it `lagMs` late, for `forMs`
   * after the restart. Sieve's time-travel pattern: a restarted controller acting on a stale view.
   */
  | { readonly kind: 'staleRestart'; readonly write: number; readonly from: number; readonly forMs: number; readonly lagMs: number };

/** The bounds a schedule is drawn within. */
export interface ScheduleShape {
  faults: readonly FaultKind[];
  /** Time faults fall in [0, windowMs). */
  windowMs: number;
  /** Write faults hit one of the first `writes` writes, dependency faults one of the first `calls` calls. */
  writes: number;
  calls: number;
  /** A lag of one kind lags one of the first `watches` kinds watched. */
  watches: number;
  /** At most this many faults (at least one). */
  maxFaults: number;
}

/** The schedule of `seed`: one to `maxFaults` faults of the allowed kinds, in the order drawn. */
export function scheduleFor(seed: number, shape: ScheduleShape): Fault[] {
  const random = mulberry32(seed);
  const int = (n: number): number => Math.floor(random() * n);
  const atMs = (): number => int(shape.windowMs / 10) * 10;
  const count = 1 + int(shape.maxFaults);
  const out: Fault[] = [];
  for (let i = 0; i < count; i++) {
    const kind = shape.faults[int(shape.faults.length)]!;
    switch (kind) {
      case 'cacheLag':
        out.push({
          kind,
          write: int(shape.writes),
          forMs: 100 + int(10) * 100,
          lagMs: 50 + int(10) * 50,
          ...(random() < 0.75 ? { watch: int(shape.watches) } : {}),
        });
        break;
      case 'watchCut':
        out.push({ kind, atMs: atMs(), relist: random() < 0.5 });
        break;
      case 'dependencyTimeout':
        out.push({ kind, call: int(shape.calls) });
        break;
      case 'staleRestart': {
        const write = int(shape.writes);
        out.push({ kind, write, from: Math.max(0, write - int(4)), forMs: 200 + int(9) * 100, lagMs: 100 + int(8) * 50 });
        break;
      }
      default:
        out.push({ kind, write: int(shape.writes) });
    }
  }
  return out;
}

/** One line saying what `fault` does, for failure reports; `kinds` names the kinds watched, in order. */
export function describeFault(fault: Fault, kinds: readonly string[] = []): string {
  switch (fault.kind) {
    case 'cacheLag': {
      const which = fault.watch === undefined ? 'the cache' : `the cache of ${kinds[fault.watch] ?? `watched kind #${fault.watch}`}`;
      return `write #${fault.write}: from then on ${which} lags ${fault.lagMs} ms behind the server for ${fault.forMs} ms`;
    }
    case 'watchCut':
      return `at ${fault.atMs} ms: every watch is cut${fault.relist ? ' and history compacted (410 Gone, relist)' : ''}`;
    case 'concurrentWrite':
      return `write #${fault.write}: another writer changes the object just before it`;
    case 'tooManyRequests':
      return `write #${fault.write}: refused with 429 Too Many Requests (Retry-After 1 s)`;
    case 'writeTimeout':
      return `write #${fault.write}: times out (504, not applied)`;
    case 'lostResponse':
      return `write #${fault.write}: applied, but the response is lost`;
    case 'crash':
      return `write #${fault.write}: the manager crashes just before it, and restarts`;
    case 'leaseLoss':
      return `write #${fault.write}: from then on the leader cannot renew its Lease; a standby takes over`;
    case 'dependencyTimeout':
      return `dependency call #${fault.call}: times out`;
    case 'staleRestart':
      return `write #${fault.write}: the manager crashes just before it; the new one lists the cluster as it was before write #${fault.from}, and its watch events lag ${fault.lagMs} ms for ${fault.forMs} ms`;
  }
}

/** A small, fast, seedable generator (mulberry32): 32 bits of state, uniform floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
