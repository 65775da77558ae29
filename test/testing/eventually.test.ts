// eventually: retries until a value or no throw, and a timeout message with the last error and value.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from 'kube-converge/meta';
import { eventually, EventuallyTimeoutError } from 'kube-converge/testing';

describe('eventually', () => {
  it('resolves with the first result that neither throws nor is false', async () => {
    let n = 0;
    const v = await eventually(() => (++n < 3 ? false : n), { intervalMs: 1 });
    assert.equal(v, 3);
  });

  it('fails with the last error and the attempt count when time runs out', async () => {
    const clock = new FakeClock();
    let n = 0;
    const p = eventually(
      () => {
        n++;
        throw new Error(`replicas ${n} != 3`);
      },
      { clock, timeoutMs: 100, intervalMs: 10, message: 'WebApp ready' },
    );
    const settled = p.then(
      () => assert.fail('should time out'),
      (e: unknown) => e,
    );
    await clock.advance(200);
    const err = await settled;
    assert.ok(err instanceof EventuallyTimeoutError);
    assert.equal(err.code, 'CONVERGE_EVENTUALLY_TIMEOUT');
    assert.match(err.message, /waiting for WebApp ready; last error: Error: replicas \d+ != 3/);
    assert.equal(err.attempts, 11);
  });

  it('reports the last value when the check kept returning false', async () => {
    const clock = new FakeClock();
    const p = eventually(() => false as const, { clock, timeoutMs: 50, intervalMs: 10 }).catch((e: unknown) => e);
    await clock.advance(100);
    const err = (await p) as EventuallyTimeoutError;
    assert.match(err.message, /last value: false/);
  });
});
