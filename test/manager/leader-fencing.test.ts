// Imports the manager's private leader elector and option resolution, to test the fence on a fake clock.
// The leader fence on a FakeClock: the renew deadline counts from the last successful renewal (retries
// never move it), seeing another valid holder ends leadership at once, the fence is checked at the
// moment of asking (a process waking from a pause is refused before any timer runs), a successor
// leads only after the old leader's fence closed, and client-go's timing validation (called directly,
// from the private leaderelection package, as the manager applies it to its options).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateLeaderElectionTimings } from '../../src/manager/leaderelection/index.js';
import { FakeClock, noopLogger, type Clock } from 'kube-converge/meta';
import { MemoryLock } from './memory-lock.js';
import { DisturbedClock } from './disturbed-clock.js';
import { LeaderElector, type LeaseLock } from '../../src/manager/leaderelection/index.js';
import { resolveManagerOptions } from '../../src/manager/options.js';

const timings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

function candidate(lock: LeaseLock, clock: Clock, identity: string) {
  const events: string[] = [];
  const elector = new LeaderElector({
    lock,
    identity,
    clock,
    logger: noopLogger,
    releaseOnCancel: false,
    ...timings,
    onStartedLeading: (signal) => {
      events.push(`started@${clock.now()}`);
      signal.addEventListener('abort', () => events.push(`stopped@${clock.now()}`));
    },
  });
  const ctl = new AbortController();
  const done = elector.run(ctl.signal);
  return { elector, events, ctl, done };
}

describe('leader fencing', () => {
  it('counts the renew deadline from the last successful renewal, and failed retries never move it', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    const a = candidate(lock, clock, 'a');
    await clock.advance(2_000);
    assert.equal(lock.snapshot!.record.renewTimeMs, 2_000, 'renewed at 2 s');
    lock.mode = 'fail';
    // Retries at 4, 6, 8, 10 s fail; the fence counts from 2 s, so it closes at 12 s (client-go: 14 s).
    await clock.advance(9_999);
    assert.equal(a.elector.isLeading(), true);
    await clock.advance(1);
    assert.equal(a.elector.isLeading(), false);
    assert.deepEqual(a.events, ['started@0', 'stopped@12000']);
    assert.equal(await a.done, 'lost');
  });

  it('does not let a renewal that succeeds after the deadline extend leadership', async () => {
    const clock = new FakeClock(0);
    const store = new MemoryLock();
    let mode: 'ok' | 'hang' = 'ok';
    const a = candidate(
      store.view(() => mode),
      clock,
      'a',
    );
    await clock.advance(0);
    mode = 'hang';
    await clock.advance(10_000);
    mode = 'ok';
    await clock.advance(10_000);
    assert.deepEqual(a.events, ['started@0', 'stopped@10000']);
    assert.equal(await a.done, 'lost');
    assert.equal(a.elector.isLeading(), false);
  });

  it('stops leading at once when a renewal finds another candidate holding a valid lease', async () => {
    const clock = new FakeClock(0);
    const lock = new MemoryLock();
    const a = candidate(lock, clock, 'a');
    await clock.advance(2_000);
    // Someone took the lease behind a's back (as after a pause of a's process longer than the lease).
    lock.write({ holderIdentity: 'intruder', leaseDurationSeconds: 15, acquireTimeMs: 3_000, renewTimeMs: 3_000, leaderTransitions: 1 });
    await clock.advance(2_000);
    // Not at the deadline (12 s): at the renewal that saw the intruder.
    assert.deepEqual(a.events, ['started@0', 'stopped@4000']);
    assert.equal(await a.done, 'lost');
    assert.equal(a.elector.getLeader(), 'intruder');
  });

  it('times leases on the monotonic clock: a wall-clock step lets no standby take over early or late', async () => {
    const fake = new FakeClock(0);
    const store = new MemoryLock();
    let aNetwork: 'ok' | 'fail' = 'ok';
    const a = candidate(
      store.view(() => aNetwork),
      fake,
      'a',
    );
    await fake.advance(0);
    const standbyClock = new DisturbedClock(fake);
    const b = candidate(store, standbyClock, 'b');
    await fake.advance(2_000);
    assert.equal(store.snapshot!.record.renewTimeMs, 2_000, 'a renewed at 2 s, and b saw it');
    aNetwork = 'fail';
    // The standby's wall clock jumps an hour ahead, later two hours back: its lease wait must not notice.
    standbyClock.step(3_600_000);
    await fake.advance(4_000);
    standbyClock.step(-7_200_000);
    await fake.advance(6_000);
    assert.deepEqual(a.events, ['started@0', 'stopped@12000'], "a's fence closed 10 s after its last renewal");
    await fake.advance(4_000);
    assert.equal(b.elector.isLeading(), false, 'at 16 s, 14 s after b saw the renewal, the lease is still valid');
    await fake.advance(2_000);
    assert.equal(b.elector.isLeading(), true, 'b took over at its first retry 15 s after the renewal it saw');
    b.ctl.abort();
    await b.done;
    assert.equal(await a.done, 'lost');
  });

  it('refuses to lead past the deadline after a pause, before any timer has fired', async () => {
    const fake = new FakeClock(0);
    const clock = new DisturbedClock(fake);
    const a = candidate(new MemoryLock(), clock, 'a');
    await fake.advance(2_000);
    assert.equal(a.elector.isLeading(), true);
    clock.wake(9_999);
    assert.equal(a.elector.isLeading(), true, 'still inside the deadline counted from the renewal at 2 s');
    clock.wake(1);
    // No timer ran since the wake-up; the check itself closes the fence and ends leadership.
    assert.equal(a.elector.isLeading(), false);
    assert.deepEqual(a.events, ['started@0', 'stopped@12000']);
    await fake.advance(2_000);
    assert.equal(await a.done, 'lost');
  });

  it('lets a successor lead only after the old leader stopped, one lease duration after the renewal it last saw', async () => {
    const clock = new FakeClock(0);
    const store = new MemoryLock();
    let aNetwork: 'ok' | 'hang' = 'ok';
    const a = candidate(
      store.view(() => aNetwork),
      clock,
      'a',
    );
    await clock.advance(0);
    const b = candidate(store, clock, 'b');
    await clock.advance(5_000);
    const lastRenew = store.snapshot!.record.renewTimeMs;
    aNetwork = 'hang';
    await clock.advance(30_000);
    const [, stopped] = a.events;
    const [started] = b.events;
    const at = (e: string | undefined) => Number(e?.split('@')[1]);
    assert.equal(at(stopped), lastRenew + timings.renewDeadlineMs);
    assert.ok(at(started) >= lastRenew + timings.leaseDurationMs, `b led at ${at(started)}, a last renewed at ${lastRenew}`);
    assert.ok(at(started) > at(stopped));
    a.ctl.abort();
    b.ctl.abort();
    await Promise.all([a.done, b.done]);
  });
});

describe('leader election timings (client-go validation)', () => {
  const t = (leaseDurationMs: number, renewDeadlineMs: number, retryPeriodMs: number) => ({
    leaseDurationMs,
    renewDeadlineMs,
    retryPeriodMs,
  });
  const rejects = (timings: ReturnType<typeof t>, path: string) =>
    assert.throws(() => validateLeaderElectionTimings('leaderElection', timings), { code: 'CONVERGE_INVALID_OPTION', path });

  it('accepts a lease longer than the renew deadline, and a deadline longer than 1.2 retry periods', () => {
    validateLeaderElectionTimings('leaderElection', t(15_000, 10_000, 2_000));
    validateLeaderElectionTimings('leaderElection', t(2_000, 1_500, 400));
    validateLeaderElectionTimings('leaderElection', t(3_000, 2_401, 2_000));
  });

  it('rejects a renew deadline of at most 1.2 retry periods, naming renewDeadlineMs', () => {
    rejects(t(3_000, 2_400, 2_000), 'leaderElection.renewDeadlineMs');
    rejects(t(15_000, 2_000, 2_000), 'leaderElection.renewDeadlineMs');
  });

  it('rejects a lease that does not outlive the renew deadline, naming leaseDurationMs', () => {
    rejects(t(10_000, 10_000, 2_000), 'leaderElection.leaseDurationMs');
    rejects(t(9_000, 10_000, 2_000), 'leaderElection.leaseDurationMs');
  });

  it('rejects a zero, negative or non-finite duration, naming it', () => {
    rejects(t(15_000, 10_000, 0), 'leaderElection.retryPeriodMs');
    rejects(t(15_000, -1, 2_000), 'leaderElection.renewDeadlineMs');
    rejects(t(Number.NaN, 10_000, 2_000), 'leaderElection.leaseDurationMs');
  });

  it('applies the same rules to the manager options when they are resolved, and rejects an empty identity', () => {
    assert.throws(
      () =>
        resolveManagerOptions({
          leaderElection: { id: 'op', namespace: 'ns', leaseDurationMs: 3_000, renewDeadlineMs: 2_400, retryPeriodMs: 2_000 },
        }),
      { code: 'CONVERGE_INVALID_OPTION', path: 'leaderElection.renewDeadlineMs', message: /retryPeriodMs × 1\.2 \(2400\), got 2400/ },
    );
    assert.throws(() => resolveManagerOptions({ leaderElection: { id: 'op', namespace: 'ns', retryPeriodMs: 9_000 } }), {
      path: 'leaderElection.renewDeadlineMs',
    });
    assert.throws(() => resolveManagerOptions({ leaderElection: { id: 'op', namespace: 'ns', identity: '' } }), {
      path: 'leaderElection.identity',
    });
  });
});
