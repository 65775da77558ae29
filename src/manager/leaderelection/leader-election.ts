/**
 * Leader election: client-go's `leaderelection` algorithm over a `LeaseLock`, timed on the injected
 * clock, with a fence client-go does not have. A candidate tries every `retryPeriodMs` to create the
 * lock or take it over once the holder's lease has not been renewed for its lease duration (measured
 * on OUR clock from when we last saw the record change, never by comparing clocks across machines). A
 * leader renews every `retryPeriodMs`. Every write carries the version it was computed from, so two
 * candidates racing get one success and one conflict.
 *
 *     idle ──run()──▶ acquiring ──won──▶ leading ──deadline passed / other holder seen──▶ stopped('lost')
 *                         │                  │
 *                         └──signal aborts───┴─────────────────────────────────────────▶ stopped('cancelled')
 *
 * Invariant (the fence): `isLeading()` is true only while `now − lastRenew < renewDeadlineMs`, both on
 * the monotonic clock (`Clock.monotonicMs`, which no wall-clock step moves), where
 * `lastRenew` is when the last SUCCESSFUL acquire or renew attempt started — retries never move it.
 * The check is synchronous, so a process waking from a pause sees it closed before doing any work, even
 * if no timer has fired yet; the first check that finds it closed ends leadership (the leader signal
 * aborts). A successor takes over only `leaseDurationMs > renewDeadlineMs` after it saw that renewal,
 * so two leaders never overlap, provided clocks run at the same rate (docs/manager.md gives the
 * argument). Waits are exact multiples of `retryPeriodMs` (client-go adds jitter); the fake clock
 * stays exact. A candidate whose lock can watch keeps one watch on it for its whole campaign and
 * tries at once when the holder gives the lock up, instead of at its next retry. The rule deciding
 * each round (read, create, renew, take over, wait) is the pure `leaseStep`; the elector only
 * performs its I/O and keeps time.
 */
import assert from 'node:assert/strict';
import { InvalidOptionError, type Clock, type Logger, type Timer } from '../../meta/index.js';
import { requireDuration } from '../../meta/internal.js';
import { ReleaseWatch } from './release-watch.js';
import type { LeaderElectionRecord, LeaseLock, LockSnapshot } from './lock.js';

/** Where a `LeaderElector` is: idle, acquiring, leading since when, or stopped and why. */
export type ElectorState =
  { kind: 'idle' } | { kind: 'acquiring' } | { kind: 'leading'; sinceMs: number } | { kind: 'stopped'; reason: 'cancelled' | 'lost' };

/** Options of a `LeaderElector`: its lock, identity, lease timings, clock and logger. */
export interface LeaderElectorOptions {
  lock: LeaseLock;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** Give the lock up (holder '') when the signal aborts while leading, so a successor need not wait. */
  releaseOnCancel: boolean;
  clock: Clock;
  logger: Logger;
  /** Called once leadership is won; `signal` aborts the moment leadership ends for any reason. */
  onStartedLeading(signal: AbortSignal): void;
  /** Called when the observed holder changes (including to ourselves). */
  onNewLeader?(identity: string): void;
}

/**
 * client-go's validation: the lease outlives the renew deadline, which outlives a retry period
 * stretched by client-go's JitterFactor (1.2), so that a renewal retried once still fits.
 */
export function validateLeaderElectionTimings(
  path: string,
  t: { leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number },
): void {
  requireDuration(`${path}.leaseDurationMs`, t.leaseDurationMs);
  requireDuration(`${path}.renewDeadlineMs`, t.renewDeadlineMs);
  requireDuration(`${path}.retryPeriodMs`, t.retryPeriodMs);
  if (t.retryPeriodMs <= 0) throw new InvalidOptionError(`${path}.retryPeriodMs`, `must be > 0, got ${t.retryPeriodMs}`);
  if (t.leaseDurationMs <= t.renewDeadlineMs) {
    throw new InvalidOptionError(
      `${path}.leaseDurationMs`,
      `must be greater than renewDeadlineMs (${t.renewDeadlineMs}), got ${t.leaseDurationMs}`,
    );
  }
  // renewDeadline > 1.2 × retryPeriod, in integers so that no rounding decides a boundary case.
  if (t.renewDeadlineMs * 5 <= t.retryPeriodMs * 6) {
    throw new InvalidOptionError(
      `${path}.renewDeadlineMs`,
      `must be greater than retryPeriodMs × 1.2 (${(t.retryPeriodMs * 6) / 5}), got ${t.renewDeadlineMs}`,
    );
  }
}

const recordText = (r: LeaderElectionRecord): string =>
  `${r.holderIdentity}|${r.leaseDurationSeconds}|${r.acquireTimeMs}|${r.renewTimeMs}|${r.leaderTransitions}`;

/**
 * The record that gives a lease up, as client-go writes it on release: no holder, a one-second
 * duration so a candidate's next look finds it expired, stamped `nowMs`, the transition count kept.
 */
export function releasedRecord(last: LeaderElectionRecord, nowMs: number): LeaderElectionRecord {
  return {
    holderIdentity: '',
    leaseDurationSeconds: 1,
    acquireTimeMs: nowMs,
    renewTimeMs: nowMs,
    leaderTransitions: last.leaderTransitions,
  };
}

/**
 * What a candidate knows about the lock: the record last read or written, and when it last changed,
 * on its own monotonic clock (`Clock.monotonicMs`), so no wall-clock step can stretch or shrink a lease.
 */
export interface Observation {
  snapshot: LockSnapshot;
  atMs: number;
}

/** Folds a snapshot into the observation; the lease clock restarts only when the record itself changed. */
export function observe(prev: Observation | undefined, snapshot: LockSnapshot, monotonicMs: number): Observation {
  const changed = !prev || recordText(prev.snapshot.record) !== recordText(snapshot.record);
  return { snapshot, atMs: changed ? monotonicMs : prev.atMs };
}

/** The next thing a candidate does with the lock. */
export type LeaseStep =
  | { kind: 'read' }
  | { kind: 'create'; record: LeaderElectionRecord }
  | { kind: 'update'; record: LeaderElectionRecord; version: string }
  | { kind: 'wait'; holder: string };

/**
 * client-go's acquire-or-renew rule as a pure function. Without a `fresh` read, only a leader whose
 * lease is still valid on its own clock renews from what it last wrote; everyone else must read. After
 * a fresh read (`observed` undefined = no lock): create it; wait while another holder's lease is valid;
 * otherwise renew (keeping acquire time and transitions) or take over (one more transition).
 * `nowMs` (wall clock) only stamps the record others read; validity is judged on `monotonicMs`.
 */
export function leaseStep(input: {
  identity: string;
  leaseSeconds: number;
  nowMs: number;
  monotonicMs: number;
  observed: Observation | undefined;
  fresh: boolean;
}): LeaseStep {
  const { identity, leaseSeconds, nowMs, monotonicMs, observed, fresh } = input;
  const desired: LeaderElectionRecord = {
    holderIdentity: identity,
    leaseDurationSeconds: leaseSeconds,
    acquireTimeMs: nowMs,
    renewTimeMs: nowMs,
    leaderTransitions: 0,
  };
  if (!observed) return fresh ? { kind: 'create', record: desired } : { kind: 'read' };
  const old = observed.snapshot.record;
  const valid = observed.atMs + old.leaseDurationSeconds * 1000 > monotonicMs;
  const renew = (): LeaseStep => ({
    kind: 'update',
    record: { ...desired, acquireTimeMs: old.acquireTimeMs, leaderTransitions: old.leaderTransitions },
    version: observed.snapshot.version,
  });
  if (!fresh) return old.holderIdentity === identity && valid ? renew() : { kind: 'read' };
  if (old.holderIdentity !== '' && old.holderIdentity !== identity && valid) return { kind: 'wait', holder: old.holderIdentity };
  if (old.holderIdentity === identity) return renew();
  return { kind: 'update', record: { ...desired, leaderTransitions: old.leaderTransitions + 1 }, version: observed.snapshot.version };
}

/** What one acquire-or-renew round came to. */
type RoundOutcome = { kind: 'won' } | { kind: 'held'; holder: string } | { kind: 'failed' };

/** Campaigns for a lease and keeps it renewed, telling its caller when it leads and when it lost. */
export class LeaderElector {
  readonly #o: LeaderElectorOptions;
  readonly #leaseSeconds: number;
  #state: ElectorState = { kind: 'idle' };
  #observed: Observation | undefined;
  #reportedLeader: string | undefined;
  /** When the last successful acquire or renew attempt started (before its request was sent): the fence counts from here. */
  #lastRenewMs = -Infinity;
  /** The campaign's watch for a release, while acquiring with a lock that can watch. */
  #releaseWatch: ReleaseWatch | undefined;
  /** Aborts the moment leadership ends; the signal handed to `onStartedLeading`. */
  #leading: AbortController | undefined;

  constructor(options: LeaderElectorOptions) {
    validateLeaderElectionTimings('leaderElection', options);
    if (!options.identity) throw new InvalidOptionError('leaderElection.identity', 'must not be empty');
    this.#o = options;
    // A Lease stores whole seconds; round up so a lease is never shorter than asked for.
    this.#leaseSeconds = Math.max(1, Math.ceil(options.leaseDurationMs / 1000));
  }

  get state(): ElectorState {
    return this.#state;
  }

  /** Whether the last record we observed names us (it may be stale; `isLeading` is the fence). */
  isLeader(): boolean {
    return this.#observed?.snapshot.record.holderIdentity === this.#o.identity;
  }

  /**
   * The fence: leading, and less than `renewDeadlineMs` since the last successful renewal started.
   * Synchronous, so it holds even when no timer has run yet (a process just woken from a pause); the
   * first call that finds the deadline passed ends leadership at once.
   */
  isLeading(): boolean {
    const leading = this.#leading;
    if (this.#state.kind !== 'leading' || !leading || leading.signal.aborted) return false;
    if (this.#o.clock.monotonicMs() - this.#lastRenewMs < this.#o.renewDeadlineMs) return true;
    leading.abort(new Error('leader election lost: renew deadline passed'));
    return false;
  }

  /** The holder we last observed ('' when released or unknown). */
  getLeader(): string {
    return this.#observed?.snapshot.record.holderIdentity ?? '';
  }

  /**
   * Campaigns until `signal` aborts or leadership, once won, is lost. Resolves with why it ended;
   * never rejects (failed attempts are logged and retried).
   */
  async run(signal: AbortSignal): Promise<'cancelled' | 'lost'> {
    if (this.#state.kind !== 'idle') throw new InvalidOptionError('leaderElection', 'an elector runs once');
    const log = this.#o.logger.child({ lock: this.#o.lock.description, identity: this.#o.identity });
    this.#state = { kind: 'acquiring' };
    log.info({}, 'attempting to acquire leader lease');
    const wonAt = await this.#acquire(signal, log);
    if (wonAt === undefined) return this.#stop('cancelled');
    this.#lastRenewMs = wonAt;
    const leading = (this.#leading = new AbortController());
    this.#state = { kind: 'leading', sinceMs: this.#o.clock.now() };
    log.info({}, 'successfully acquired lease');
    this.#o.onStartedLeading(leading.signal);
    const outcome = await this.#renewLoop(signal, log, leading);
    leading.abort(new Error(outcome === 'lost' ? 'leader election lost' : 'leader election cancelled'));
    if (outcome === 'lost') log.error({}, 'leader election lost');
    else if (this.#o.releaseOnCancel) await this.#release(log);
    return this.#stop(outcome);
  }

  #stop(reason: 'cancelled' | 'lost'): 'cancelled' | 'lost' {
    this.#state = { kind: 'stopped', reason };
    return reason;
  }

  /**
   * Retries until a round wins; resolves with when that round started, or undefined once `signal`
   * aborts. Between rounds it waits one retry period, or less: when the lock can tell that its holder
   * released it (a rolling update's `releaseOnCancel`), the next round starts at once.
   */
  async #acquire(signal: AbortSignal, log: Logger): Promise<number | undefined> {
    const { clock, lock, renewDeadlineMs, retryPeriodMs } = this.#o;
    const campaign = new AbortController();
    const watch = lock.watch?.bind(lock);
    const releases = watch && new ReleaseWatch({ watch, clock, logger: log, signal: AbortSignal.any([signal, campaign.signal]) });
    this.#releaseWatch = releases;
    try {
      for (;;) {
        if (signal.aborted) return undefined;
        // A hung request must not stall the campaign: each attempt gets the renew deadline at most.
        const attempt = new AbortController();
        const timer = clock.setTimer(() => attempt.abort(new Error('acquire attempt timed out')), renewDeadlineMs);
        const startedAt = clock.monotonicMs();
        let round: RoundOutcome;
        try {
          round = await this.#tryAcquireOrRenew(AbortSignal.any([signal, attempt.signal]), log);
        } finally {
          timer.cancel();
        }
        if (round.kind === 'won') return startedAt;
        try {
          await (releases ? releases.wait(retryPeriodMs) : clock.sleep(retryPeriodMs, { signal }));
        } catch {
          return undefined;
        }
      }
    } finally {
      this.#releaseWatch = undefined;
      campaign.abort();
    }
  }

  /**
   * Renews every retry period until the fence closes (the deadline timer, or `isLeading` noticing
   * first), another holder is seen, or `signal` aborts. A success moves the deadline; a failure never does.
   */
  async #renewLoop(signal: AbortSignal, log: Logger, leading: AbortController): Promise<'cancelled' | 'lost'> {
    const { clock, retryPeriodMs } = this.#o;
    const ended = AbortSignal.any([signal, leading.signal]);
    let deadline = this.#armDeadline(leading);
    try {
      for (;;) {
        try {
          await clock.sleep(retryPeriodMs, { signal: ended });
        } catch {
          // The checks below tell a lost lease from cancellation.
        }
        if (!this.isLeading()) return 'lost';
        if (signal.aborted) return 'cancelled';
        const startedAt = clock.monotonicMs();
        const round = await this.#tryAcquireOrRenew(ended, log);
        // A renewal that succeeds after the deadline is too late: leadership already ended.
        if (!this.isLeading()) return 'lost';
        if (signal.aborted) return 'cancelled';
        if (round.kind === 'held') {
          leading.abort(new Error(`leader election lost: the lease is held by ${round.holder}`));
          log.error({ holder: round.holder }, 'another candidate holds the lease; stopped leading');
          return 'lost';
        }
        if (round.kind === 'won') {
          this.#lastRenewMs = startedAt;
          deadline.cancel();
          deadline = this.#armDeadline(leading);
        }
      }
    } finally {
      deadline.cancel();
    }
  }

  /** Ends leadership at `lastRenew + renewDeadlineMs`, the instant the fence closes. */
  #armDeadline(leading: AbortController): Timer {
    const { clock, renewDeadlineMs } = this.#o;
    const leftMs = this.#lastRenewMs + renewDeadlineMs - clock.monotonicMs();
    return clock.setTimer(() => leading.abort(new Error('leader election lost: renew deadline passed')), leftMs);
  }

  #observe(snapshot: LockSnapshot, monotonicMs: number): void {
    this.#observed = observe(this.#observed, snapshot, monotonicMs);
    this.#releaseWatch?.saw(snapshot.version);
    const holder = snapshot.record.holderIdentity;
    if (holder !== this.#reportedLeader) {
      this.#reportedLeader = holder;
      if (holder !== '') this.#o.onNewLeader?.(holder);
    }
  }

  /**
   * One round of client-go's `tryAcquireOrRenew`: the decisions are `leaseStep`'s, the I/O is here.
   * A read is timestamped when its answer arrived, never earlier: the lease of a holder we see is
   * counted from no earlier than the moment its renewal was visible to us.
   */
  async #tryAcquireOrRenew(signal: AbortSignal, log: Logger): Promise<RoundOutcome> {
    const { lock, identity, clock } = this.#o;
    const input = { identity, leaseSeconds: this.#leaseSeconds };
    try {
      const fast = leaseStep({ ...input, nowMs: clock.now(), monotonicMs: clock.monotonicMs(), observed: this.#observed, fresh: false });
      if (fast.kind === 'update') {
        try {
          this.#observe(await lock.update(fast.record, fast.version, { signal }), clock.monotonicMs());
          return { kind: 'won' };
        } catch (err) {
          if (signal.aborted) return { kind: 'failed' };
          log.debug({ err }, 'lease renewal fast path failed; re-reading the lock');
        }
      }
      const current = await lock.get({ signal });
      const readAt = clock.monotonicMs();
      if (current) this.#observe(current, readAt);
      const step = leaseStep({
        ...input,
        nowMs: clock.now(),
        monotonicMs: readAt,
        observed: current ? this.#observed : undefined,
        fresh: true,
      });
      assert(step.kind !== 'read', 'leaseStep never asks for a read right after a fresh read');
      if (step.kind === 'wait') return { kind: 'held', holder: step.holder };
      const written =
        step.kind === 'create' ? await lock.create(step.record, { signal }) : await lock.update(step.record, step.version, { signal });
      this.#observe(written, clock.monotonicMs());
      return { kind: 'won' };
    } catch (err) {
      if (!signal.aborted) log.debug({ err }, 'failed to acquire or renew lease');
      return { kind: 'failed' };
    }
  }

  /**
   * Writes the lock free if we hold it. The version we last saw may be stale: a renewal cut short by
   * the stop may have been stored without our seeing the answer. On a failed write the lock is read
   * once more and, if it still names us, released at the version it has now; a successor then takes
   * over at its next retry instead of waiting for the lease to expire.
   */
  async #release(log: Logger): Promise<void> {
    const { lock, identity, clock } = this.#o;
    const o = this.#observed;
    if (!o || o.snapshot.record.holderIdentity !== identity) return;
    const deadline = new AbortController();
    const timer = clock.setTimer(() => deadline.abort(new Error('release deadline passed')), this.#o.renewDeadlineMs);
    const signal = deadline.signal;
    const release = async (held: LockSnapshot): Promise<void> => {
      this.#observe(await lock.update(releasedRecord(held.record, clock.now()), held.version, { signal }), clock.monotonicMs());
    };
    try {
      try {
        await release(o.snapshot);
      } catch (err) {
        if (signal.aborted) throw err;
        const current = await lock.get({ signal });
        if (current?.record.holderIdentity !== identity) return;
        await release(current);
      }
      log.info({}, 'released leader lease');
    } catch (err) {
      log.error({ err }, 'failed to release leader lease');
    } finally {
      timer.cancel();
    }
  }
}
