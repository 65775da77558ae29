// Imports the private wire/ StreamSink type, the sink a watch stream writes to.
// Delays past Node's timer limit (2^31-1 ms) are clamped by both clocks instead of firing at once, so a
// watch with a huge timeoutSeconds stays open.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, realClock } from 'kube-converge/meta';
import { createApiServer } from 'kube-converge/apiserver';
import { type StreamSink } from '../../src/apiserver/wire/request.js';

const NODE_TIMER_LIMIT_MS = 2 ** 31 - 1;

/** Collects process warnings for the duration of `fn`. */
async function warningsDuring(fn: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const onWarning = (w: Error): void => void seen.push(w.name);
  process.on('warning', onWarning);
  try {
    await fn();
    await new Promise((r) => setImmediate(r));
  } finally {
    process.off('warning', onWarning);
  }
  return seen;
}

describe('timer clamp', () => {
  it('keeps a real-clock timer past the limit pending, without a TimeoutOverflowWarning', async () => {
    let fired = false;
    const warnings = await warningsDuring(async () => {
      const t = realClock.setTimer(() => (fired = true), 2 ** 40);
      await new Promise((r) => setTimeout(r, 20));
      t.cancel();
    });
    assert.equal(fired, false);
    assert.deepEqual(
      warnings.filter((w) => w === 'TimeoutOverflowWarning'),
      [],
    );
  });

  it('keeps a real-clock sleep past the limit pending until aborted', async () => {
    const ac = new AbortController();
    let settled = false;
    const p = realClock.sleep(Number.MAX_SAFE_INTEGER, { signal: ac.signal }).then(
      () => (settled = true),
      () => 'aborted',
    );
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(settled, false);
    ac.abort();
    assert.equal(await p, 'aborted');
  });

  it('fires a fake-clock timer past the limit at the limit, as the real clock does', async () => {
    const clock = new FakeClock(0);
    let firedAt: number | undefined;
    clock.setTimer(() => (firedAt = clock.now()), 2 ** 40);
    assert.equal(clock.nextTimerAt(), NODE_TIMER_LIMIT_MS);
    await clock.advance(NODE_TIMER_LIMIT_MS - 1);
    assert.equal(firedAt, undefined);
    await clock.advance(1);
    assert.equal(firedAt, NODE_TIMER_LIMIT_MS);
  });

  it('treats a NaN delay as 0 on the fake clock', async () => {
    const clock = new FakeClock(0);
    clock.setTimer(() => {}, Number.NaN);
    assert.equal(clock.nextTimerAt(), 0);
  });

  it('keeps a watch with timeoutSeconds=2147484 open on the real clock instead of ending it at once', async () => {
    const s = createApiServer();
    let ended = false;
    const warnings = await warningsDuring(async () => {
      const r = await s.handle({ method: 'GET', path: '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=2147484' });
      assert.equal(r.status, 200);
      const sink: StreamSink = { write: () => true, end: () => void (ended = true) };
      r.stream!.attach(sink);
      await new Promise((res) => setTimeout(res, 50));
      r.stream!.detach();
    });
    assert.equal(ended, false);
    assert.deepEqual(
      warnings.filter((w) => w === 'TimeoutOverflowWarning'),
      [],
    );
    s.stop();
  });

  it('ends a watch with a huge timeoutSeconds on the fake clock only once the clamped deadline passes', async () => {
    const clock = new FakeClock(0);
    const s = createApiServer({ clock });
    const r = await s.handle({ method: 'GET', path: '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=9999999999' });
    let ended = false;
    r.stream!.attach({ write: () => true, end: () => void (ended = true) });
    await clock.advance(60_000);
    assert.equal(ended, false);
    await clock.set(NODE_TIMER_LIMIT_MS);
    assert.equal(ended, true);
    s.stop();
  });
});
