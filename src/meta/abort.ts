/**
 * `untilAborted`: waits for a promise on behalf of one caller who may give up. Invariant: the result
 * settles with the promise's outcome or, as soon as the signal aborts, with the signal's reason —
 * whichever comes first — and the abort listener is removed either way. The promise itself is not
 * cancelled: whatever it stands for goes on for anyone else waiting on it.
 */

/** `p`, or a rejection with `signal.reason` once `signal` aborts (at once if it already has). Without a signal, `p`. @extension */
export function untilAborted<V>(p: Promise<V>, signal: AbortSignal | undefined): Promise<V> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort = (): void => {};
  return new Promise<V>((resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject);
  }).finally(() => signal.removeEventListener('abort', onAbort));
}

/** Resolves once `signal` aborts (at once if it has): for a runnable whose work is all in the background. */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
