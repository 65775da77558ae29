// Imports meta's internal (private) face: machinery shared between layers that the package does not export.
// untilAborted: a caller's wait on a shared promise that ends early when the caller's signal aborts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { untilAborted } from '../../src/meta/internal.js';

/** A promise with its settle functions, for tests that decide when it settles. */
function deferred<V>(): { promise: Promise<V>; resolve: (v: V) => void; reject: (e: unknown) => void } {
  let resolve!: (v: V) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<V>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** An AbortSignal that counts its abort listeners, to check none is left behind. */
function countingSignal(): { ctl: AbortController; listeners: () => number } {
  const ctl = new AbortController();
  let n = 0;
  const add = ctl.signal.addEventListener.bind(ctl.signal);
  const remove = ctl.signal.removeEventListener.bind(ctl.signal);
  ctl.signal.addEventListener = ((...args: Parameters<typeof add>) => (n++, add(...args))) as typeof add;
  ctl.signal.removeEventListener = ((...args: Parameters<typeof remove>) => (n--, remove(...args))) as typeof remove;
  return { ctl, listeners: () => n };
}

describe('untilAborted', () => {
  it('resolves with the promise value when the signal never aborts, and removes its listener', async () => {
    const { ctl, listeners } = countingSignal();
    const d = deferred<number>();
    const waiting = untilAborted(d.promise, ctl.signal);
    assert.equal(listeners(), 1);
    d.resolve(7);
    assert.equal(await waiting, 7);
    assert.equal(listeners(), 0);
  });

  it('rejects with the promise error when it fails first, and removes its listener', async () => {
    const { ctl, listeners } = countingSignal();
    const boom = new Error('boom');
    await assert.rejects(untilAborted(Promise.reject(boom), ctl.signal), (err) => err === boom);
    assert.equal(listeners(), 0);
  });

  it('rejects with the signal reason as soon as the signal aborts, while the promise is still pending', async () => {
    const { ctl, listeners } = countingSignal();
    const d = deferred<number>();
    const waiting = untilAborted(d.promise, ctl.signal);
    const reason = new Error('gave up');
    ctl.abort(reason);
    await assert.rejects(waiting, (err) => err === reason);
    assert.equal(listeners(), 0);
    // The shared promise is not cancelled: another waiter still gets its value.
    d.resolve(3);
    assert.equal(await d.promise, 3);
  });

  it('rejects at once, without listening, when the signal has already aborted', async () => {
    const { ctl, listeners } = countingSignal();
    const reason = new Error('already stopped');
    ctl.abort(reason);
    await assert.rejects(untilAborted(new Promise<never>(() => {}), ctl.signal), (err) => err === reason);
    assert.equal(listeners(), 0);
  });

  it('returns the promise itself when no signal is given', () => {
    const p = Promise.resolve('x');
    assert.equal(untilAborted(p, undefined), p);
  });
});
