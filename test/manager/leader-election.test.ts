// Imports the manager's private leader elector and lease steps, run on an in-memory lock.
// Leader election on an in-memory lease lock with a FakeClock: acquire, renew, lose and release, and
// the pure leaseStep rule (from the private leaderelection package: the rule is LeaderElector's internal).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { leaseStep, observe } from '../../src/manager/leaderelection/index.js';
import { FakeClock, noopLogger, type Logger } from 'kube-converge/meta';
import { captureLogger } from '../cache/helpers.js';
import { MemoryLock, type LockMode } from './memory-lock.js';
import { LeaderElector, type LeaderElectionRecord, type LeaseLock } from '../../src/manager/leaderelection/index.js';

const timings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

function candidate(lock: LeaseLock, clock: FakeClock, identity: string, extra: { releaseOnCancel?: boolean; logger?: Logger } = {}) {
  const events: string[] = [];
  let leaderSignal: AbortSignal | undefined;
  const elector = new LeaderElector({
    lock,
    identity,
    clock,
    logger: extra.logger ?? noopLogger,
    releaseOnCancel: extra.releaseOnCancel ?? false,
    ...timings,
    onStartedLeading: (signal) => {
      leaderSignal = signal;
      events.push(`started@${clock.now()}`);
      signal.addEventListener('abort', () => events.push(`stopped@${clock.now()}`));
    },
  });
  const ctl = new AbortController();
  const done = elector.run(ctl.signal);
  return { elector, events, ctl, done, leader: () => leaderSignal };
}

describe('leader election', () => {
  it('creates a missing lock and leads at once, with zero transitions', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    const a = candidate(lock, clock, 'a');
    await clock.advance(0);
    assert.deepEqual(a.events, ['started@0']);
    assert.equal(a.elector.isLeader(), true);
    assert.deepEqual(lock.snapshot!.record, {
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      acquireTimeMs: 0,
      renewTimeMs: 0,
      leaderTransitions: 0,
    });
    a.ctl.abort();
    assert.equal(await a.done, 'cancelled');
  });

  it('renews every retry period, keeping the acquire time', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    const a = candidate(lock, clock, 'a');
    await clock.advance(2_000);
    assert.equal(lock.snapshot!.record.renewTimeMs, 2_000);
    await clock.advance(2_000);
    assert.equal(lock.snapshot!.record.renewTimeMs, 4_000);
    assert.equal(lock.snapshot!.record.acquireTimeMs, 0);
    a.ctl.abort();
    await a.done;
  });

  it('stops leading exactly at the renew deadline when renewals fail, before the lease could be taken over', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    const a = candidate(lock, clock, 'a');
    await clock.advance(0);
    lock.mode = 'fail';
    // The last success started at 0, so leadership ends at 0 + 10 s; the lease written at 0 is valid until 15 s.
    await clock.advance(9_999);
    assert.equal(a.leader()!.aborted, false);
    await clock.advance(1);
    assert.equal(a.leader()!.aborted, true);
    assert.deepEqual(a.events, ['started@0', 'stopped@10000']);
    assert.equal(await a.done, 'lost');
    assert.deepEqual(a.elector.state, { kind: 'stopped', reason: 'lost' });
  });

  it('stops leading at the deadline even while a renewal request hangs', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    const a = candidate(lock, clock, 'a');
    await clock.advance(0);
    lock.mode = 'hang';
    await clock.advance(10_000);
    assert.deepEqual(a.events, ['started@0', 'stopped@10000']);
    assert.equal(await a.done, 'lost');
  });

  it('keeps a candidate waiting while the holder renews, and lets it take over one lease duration after renewals stop', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    const a = candidate(lock, clock, 'a');
    await clock.advance(0);
    const b = candidate(lock, clock, 'b');
    await clock.advance(20_000);
    assert.deepEqual(b.events, []);
    assert.equal(b.elector.getLeader(), 'a');
    // a's process freezes: it stops renewing without releasing (abort without releaseOnCancel).
    a.ctl.abort();
    await a.done;
    const lastRenew = lock.snapshot!.record.renewTimeMs;
    await clock.advance(30_000);
    const takenAt = lock.snapshot!.record.acquireTimeMs;
    assert.deepEqual(b.events, [`started@${takenAt}`]);
    // b notices the record stopped changing at its next poll and waits one lease duration from then.
    assert.ok(
      takenAt > lastRenew + 15_000 && takenAt <= lastRenew + 15_000 + 2 * 2_000,
      `took over at ${takenAt}, last renew ${lastRenew}`,
    );
    assert.equal(lock.snapshot!.record.holderIdentity, 'b');
    assert.equal(lock.snapshot!.record.leaderTransitions, 1);
    b.ctl.abort();
    await b.done;
  });

  it('lets exactly one of two racing candidates win a fresh lock', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    const a = candidate(lock, clock, 'a');
    const b = candidate(lock, clock, 'b');
    await clock.advance(10_000);
    assert.equal([a, b].filter((c) => c.events.length > 0).length, 1);
    a.ctl.abort();
    b.ctl.abort();
    await Promise.all([a.done, b.done]);
  });

  it('releases the lock on cancel when asked, so a successor takes over at its next retry', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    const a = candidate(lock, clock, 'a', { releaseOnCancel: true });
    await clock.advance(0);
    const b = candidate(lock, clock, 'b');
    await clock.advance(1_000);
    a.ctl.abort();
    assert.equal(await a.done, 'cancelled');
    assert.equal(lock.snapshot!.record.holderIdentity, '');
    await clock.advance(1_000);
    assert.deepEqual(b.events, ['started@2000']);
    b.ctl.abort();
    await b.done;
  });

  it('takes a released lock at once when the lock can watch for a release, and at its next retry when the watch fails', async () => {
    for (const [releaseWatch, startedAt] of [
      ['works', 1_000],
      ['fails', 2_000],
    ] as const) {
      const clock = new FakeClock(0);
      const lock = new MemoryLock();
      lock.releaseWatch = releaseWatch;
      const a = candidate(lock, clock, 'a', { releaseOnCancel: true });
      await clock.advance(0);
      const b = candidate(lock, clock, 'b');
      await clock.advance(1_000);
      a.ctl.abort();
      assert.equal(await a.done, 'cancelled');
      await clock.advance(0);
      await clock.advance(1_000);
      assert.deepEqual(b.events, [`started@${startedAt}`], releaseWatch);
      b.ctl.abort();
      await b.done;
    }
  });

  it('keeps one watch on the lock for the whole campaign, reopened only after it ended, from the newest version seen', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    lock.releaseWatch = 'works';
    let bMode: LockMode = 'ok';
    // a creates the lock (version 1) at 0 and renews it every 2 s; b reads it at 1 s and every 2 s after.
    const a = candidate(lock, clock, 'a', { releaseOnCancel: true });
    await clock.advance(1_000);
    const b = candidate(
      lock.view(() => bMode),
      clock,
      'b',
    );
    await clock.advance(0);
    for (let i = 0; i < 5; i++) await clock.advance(2_000);
    assert.deepEqual(lock.watchesFrom, ['1'], 'five retry periods, one watch');
    // At 12.5 s the server ends the watch, which saw a's renewal to version 7 at 12 s; b last read 6 at 11 s
    // and its round at 13 s fails, so it reopens from the watch's newer version.
    await clock.advance(1_500);
    lock.endWatches();
    bMode = 'fail';
    await clock.advance(500);
    bMode = 'ok';
    assert.deepEqual(lock.watchesFrom, ['1', '7']);
    await clock.advance(4_000);
    assert.deepEqual(lock.watchesFrom, ['1', '7']);
    // The reopened watch still wakes b at the release.
    await clock.advance(500);
    a.ctl.abort();
    assert.equal(await a.done, 'cancelled');
    await clock.advance(0);
    assert.deepEqual(b.events, ['started@17500']);
    b.ctl.abort();
    await b.done;
  });

  it('logs a watch that cannot be opened once, and tries it again at each wait, polling meanwhile', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    lock.releaseWatch = 'fails';
    const logger = captureLogger();
    const a = candidate(lock, clock, 'a');
    await clock.advance(0);
    const b = candidate(lock, clock, 'b', { logger });
    for (let i = 0; i < 3; i++) await clock.advance(2_000);
    assert.equal(lock.watchesFrom.length, 4);
    assert.deepEqual(
      logger.lines.filter((l) => l.msg.startsWith('cannot watch')).map((l) => l.fields['identity']),
      ['b'],
    );
    a.ctl.abort();
    b.ctl.abort();
    await Promise.all([a.done, b.done]);
  });

  it('releases the version the lock holds when a renewal it never saw answered was stored, and leaves a lock another holds', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    const a = candidate(lock, clock, 'a', { releaseOnCancel: true });
    await clock.advance(0);
    // A renewal the stop cut short after the server stored it: the lock moved on without a seeing it.
    lock.write({ ...lock.snapshot!.record, renewTimeMs: 500 });
    a.ctl.abort();
    assert.equal(await a.done, 'cancelled');
    assert.equal(lock.snapshot!.record.holderIdentity, '');

    const c = candidate(lock, clock, 'c', { releaseOnCancel: true });
    await clock.advance(0);
    lock.write({ ...lock.snapshot!.record, holderIdentity: 'd' });
    c.ctl.abort();
    await c.done;
    assert.equal(lock.snapshot!.record.holderIdentity, 'd', 'only a lock that still names us is released');
  });

  it('gives up a hung acquire attempt after the renew deadline and wins at a later retry', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    lock.mode = 'hang';
    const a = candidate(lock, clock, 'a');
    await clock.advance(5_000);
    lock.mode = 'ok';
    // The hung attempt (from 0) is abandoned at 10 s; the next one, at 12 s, succeeds.
    await clock.advance(7_000);
    assert.deepEqual(a.events, ['started@12000']);
    a.ctl.abort();
    await a.done;
  });

  it('ends a candidate that never won with cancelled, without calling onStartedLeading', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    lock.mode = 'fail';
    const a = candidate(lock, clock, 'a');
    await clock.advance(10_000);
    a.ctl.abort();
    assert.equal(await a.done, 'cancelled');
    assert.deepEqual(a.events, []);
  });

  it('rejects timings where the lease does not outlive the renew deadline, or the deadline a retry period', () => {
    const base = {
      lock: new MemoryLock(),
      identity: 'a',
      clock: new FakeClock(0),
      logger: noopLogger,
      releaseOnCancel: false,
      onStartedLeading: () => {},
    };
    assert.throws(() => new LeaderElector({ ...base, leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }), {
      code: 'CONVERGE_INVALID_OPTION',
    });
    assert.throws(() => new LeaderElector({ ...base, leaseDurationMs: 15_000, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 }), {
      code: 'CONVERGE_INVALID_OPTION',
    });
  });
});

describe('leaseStep (the acquire-or-renew rule)', () => {
  const rec = (holderIdentity: string, over: Partial<LeaderElectionRecord> = {}): LeaderElectionRecord => ({
    holderIdentity,
    leaseDurationSeconds: 15,
    acquireTimeMs: 100,
    renewTimeMs: 200,
    leaderTransitions: 3,
    ...over,
  });
  const seen = (record: LeaderElectionRecord, atMs: number) => ({ snapshot: { record, version: '9' }, atMs });
  const base = { identity: 'me', leaseSeconds: 15, nowMs: 10_000, monotonicMs: 10_000 };

  it('reads first unless it is the leader with a lease still valid on its own clock', () => {
    assert.deepEqual(leaseStep({ ...base, observed: undefined, fresh: false }), { kind: 'read' });
    assert.deepEqual(leaseStep({ ...base, observed: seen(rec('other'), 9_000), fresh: false }), { kind: 'read' });
    assert.deepEqual(leaseStep({ ...base, observed: seen(rec('me'), 10_000 - 15_000), fresh: false }), { kind: 'read' });
    assert.deepEqual(leaseStep({ ...base, observed: seen(rec('me'), 9_000), fresh: false }), {
      kind: 'update',
      version: '9',
      record: { ...rec('me'), renewTimeMs: 10_000 },
    });
  });

  it('creates a missing lock, waits for a valid foreign lease, and takes over an expired or released one', () => {
    assert.deepEqual(leaseStep({ ...base, observed: undefined, fresh: true }), {
      kind: 'create',
      record: { holderIdentity: 'me', leaseDurationSeconds: 15, acquireTimeMs: 10_000, renewTimeMs: 10_000, leaderTransitions: 0 },
    });
    assert.deepEqual(leaseStep({ ...base, observed: seen(rec('other'), 0), fresh: true }), { kind: 'wait', holder: 'other' });
    const takeover = {
      kind: 'update',
      version: '9',
      record: { holderIdentity: 'me', leaseDurationSeconds: 15, acquireTimeMs: 10_000, renewTimeMs: 10_000, leaderTransitions: 4 },
    };
    assert.deepEqual(leaseStep({ ...base, nowMs: 15_000, monotonicMs: 15_000, observed: seen(rec('other'), 0), fresh: true }), {
      ...takeover,
      record: { ...takeover.record, acquireTimeMs: 15_000, renewTimeMs: 15_000 },
    });
    assert.deepEqual(leaseStep({ ...base, observed: seen(rec(''), 9_999), fresh: true }), takeover);
  });

  it('measures validity from when the record last changed, not from its renewTime', () => {
    const r = rec('other', { renewTimeMs: 0 });
    const first = observe(undefined, { record: r, version: '1' }, 5_000);
    const again = observe(first, { record: { ...r }, version: '2' }, 19_000);
    assert.equal(again.atMs, 5_000);
    assert.equal(leaseStep({ ...base, nowMs: 19_999, monotonicMs: 19_999, observed: again, fresh: true }).kind, 'wait');
    assert.equal(leaseStep({ ...base, nowMs: 20_000, monotonicMs: 20_000, observed: again, fresh: true }).kind, 'update');
    assert.equal(observe(again, { record: { ...r, renewTimeMs: 1 }, version: '3' }, 19_500).atMs, 19_500);
  });
});
