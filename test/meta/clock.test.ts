// The clocks: FakeClock's timers, sleeps and abort handling, and realClock's cancellable sleep.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, realClock } from 'kube-converge/meta';

describe('FakeClock', () => {
  it('starts at 2026-01-01T00:00:00Z unless told otherwise, and moves only when advanced', async () => {
    assert.equal(new FakeClock().now(), Date.UTC(2026, 0, 1));
    const c = new FakeClock(1000);
    assert.equal(c.now(), 1000);
    await c.advance(250);
    assert.equal(c.now(), 1250);
  });

  it('fires timers in due-time order on advance, each seeing now() equal to its due time', async () => {
    const c = new FakeClock(0);
    const seen: [string, number][] = [];
    c.setTimer(() => seen.push(['c', c.now()]), 30);
    c.setTimer(() => seen.push(['a', c.now()]), 10);
    c.setTimer(() => seen.push(['b', c.now()]), 20);
    await c.advance(25);
    assert.deepEqual(seen, [
      ['a', 10],
      ['b', 20],
    ]);
    assert.equal(c.now(), 25);
    await c.advance(5);
    assert.deepEqual(seen, [
      ['a', 10],
      ['b', 20],
      ['c', 30],
    ]);
  });

  it('fires timers due at the same time in creation order', async () => {
    const c = new FakeClock(0);
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) c.setTimer(() => seen.push(i), 10);
    await c.advance(10);
    assert.deepEqual(seen, [0, 1, 2, 3, 4]);
  });

  it('fires a timer scheduled by another timer within the same advance when it is due', async () => {
    const c = new FakeClock(0);
    const seen: number[] = [];
    c.setTimer(() => {
      seen.push(c.now());
      c.setTimer(() => seen.push(c.now()), 5);
    }, 10);
    await c.advance(20);
    assert.deepEqual(seen, [10, 15]);
  });

  it('never fires a timer early or twice, and clamps negative delays to now', async () => {
    const c = new FakeClock(0);
    let fired = 0;
    c.setTimer(() => fired++, 10);
    await c.advance(9);
    assert.equal(fired, 0);
    await c.advance(1);
    await c.advance(100);
    assert.equal(fired, 1);
    c.setTimer(() => fired++, -5);
    assert.equal(c.nextTimerAt(), c.now());
    await c.advance(0);
    assert.equal(fired, 2);
  });

  it('cancels timers idempotently, also after they fired', async () => {
    const c = new FakeClock(0);
    let fired = 0;
    const t = c.setTimer(() => fired++, 10);
    const u = c.setTimer(() => fired++, 10);
    assert.equal(c.pendingTimers(), 2);
    t.cancel();
    t.cancel();
    assert.equal(c.pendingTimers(), 1);
    await c.advance(10);
    assert.equal(fired, 1);
    u.cancel();
    assert.equal(c.pendingTimers(), 0);
  });

  it('reports the earliest pending timer', () => {
    const c = new FakeClock(0);
    assert.equal(c.nextTimerAt(), undefined);
    c.setTimer(() => {}, 50);
    c.setTimer(() => {}, 20);
    assert.equal(c.nextTimerAt(), 20);
  });

  it('resolves sleep when time reaches it, and lets awaiting code run before the next timer', async () => {
    const c = new FakeClock(0);
    const seen: string[] = [];
    const sleeper = (async () => {
      await c.sleep(10);
      seen.push(`woke at ${c.now()}`);
    })();
    c.setTimer(() => seen.push('timer at 20'), 20);
    await c.advance(20);
    await sleeper;
    assert.deepEqual(seen, ['woke at 10', 'timer at 20']);
  });

  it('rejects sleep with the abort reason and frees its timer', async () => {
    const c = new FakeClock(0);
    const ac = new AbortController();
    const p = c.sleep(1000, { signal: ac.signal });
    assert.equal(c.pendingTimers(), 1);
    ac.abort(new Error('stop'));
    await assert.rejects(p, /stop/);
    assert.equal(c.pendingTimers(), 0);
  });

  it('rejects sleep at once when the signal is already aborted, without scheduling', async () => {
    const c = new FakeClock(0);
    await assert.rejects(c.sleep(10, { signal: AbortSignal.abort(new Error('gone')) }), /gone/);
    assert.equal(c.pendingTimers(), 0);
  });

  it('ignores an abort after the sleep resolved', async () => {
    const c = new FakeClock(0);
    const ac = new AbortController();
    const p = c.sleep(5, { signal: ac.signal });
    await c.advance(5);
    assert.equal(await p, undefined);
    ac.abort(new Error('too late'));
    // A late abort neither schedules anything nor turns the settled sleep into a rejection.
    assert.equal(c.pendingTimers(), 0);
    assert.equal(await p, undefined);
  });

  it('runAll fires every timer, including ones scheduled while running, in order', async () => {
    const c = new FakeClock(0);
    const seen: number[] = [];
    c.setTimer(() => seen.push(c.now()), 300);
    c.setTimer(() => {
      seen.push(c.now());
      c.setTimer(() => seen.push(c.now()), 500);
    }, 100);
    await c.runAll();
    assert.deepEqual(seen, [100, 300, 600]);
    assert.equal(c.pendingTimers(), 0);
    assert.equal(c.now(), 600);
  });

  it('runAll gives up on a timer that keeps rescheduling itself', async () => {
    const c = new FakeClock(0);
    const tick = (): void => void c.setTimer(tick, 1);
    tick();
    await assert.rejects(c.runAll(50), /still 1 timers after 50 steps/);
  });

  it('refuses to move backwards', async () => {
    const c = new FakeClock(100);
    await assert.rejects(c.set(50), RangeError);
    await c.set(200);
    assert.equal(c.now(), 200);
  });
});

describe('realClock', () => {
  it('reads the process clock', () => {
    const before = Date.now();
    const n = realClock.now();
    assert.ok(n >= before && n <= Date.now());
  });

  it('rejects sleep on abort without waiting for the timer', async () => {
    const ac = new AbortController();
    const p = realClock.sleep(60_000, { signal: ac.signal });
    ac.abort(new Error('cancelled'));
    await assert.rejects(p, /cancelled/);
    await assert.rejects(realClock.sleep(60_000, { signal: AbortSignal.abort(new Error('early')) }), /early/);
  });

  it('does not fire a cancelled timer', async () => {
    let fired = false;
    realClock
      .setTimer(() => {
        fired = true;
      }, 0)
      .cancel();
    // This is the real clock under test, so it takes one real timer turn (a 0 ms timer fires after 1 ms).
    await new Promise((r) => setTimeout(r, 2));
    assert.equal(fired, false);
  });
});
