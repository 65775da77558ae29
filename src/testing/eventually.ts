/**
 * `eventually(fn)`: polls an assertion until it passes or a deadline expires, for end-to-end tests
 * where convergence takes a few event round-trips. On timeout it fails with the last error thrown
 * (or the last value returned) so the test says *what* never converged, not just that time ran out.
 */
import { InvalidOptionError, realClock, type Clock } from '../meta/index.js';
import { requireDuration } from '../meta/internal.js';
import { EventuallyTimeoutError } from './errors.js';

/** Options of `eventually`: how long to keep trying, how often, and on which clock. */
export interface EventuallyOptions {
  /** Give up after this long; default 5000 ms. */
  timeoutMs?: number;
  /** Pause between attempts; default 20 ms. */
  intervalMs?: number;
  /** Describes what is awaited, for the failure message. */
  message?: string;
  clock?: Clock;
  signal?: AbortSignal;
}

function describe(v: unknown): string {
  if (v instanceof Error) return `${v.name}: ${v.message}`;
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 500 ? `${s.slice(0, 500)}…` : s;
  } catch {
    return String(v);
  }
}

/**
 * Calls `fn` until it neither throws nor returns `false`, then resolves with its result.
 * `fn` may be async; returning `false` counts as "not yet".
 */
export async function eventually<T>(fn: () => T | Promise<T>, options: EventuallyOptions = {}): Promise<Exclude<T, false>> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const intervalMs = options.intervalMs ?? 20;
  requireDuration('timeoutMs', timeoutMs);
  requireDuration('intervalMs', intervalMs);
  if (intervalMs === 0) throw new InvalidOptionError('intervalMs', 'must be > 0 so that other work can run between attempts');
  const clock = options.clock ?? realClock;
  const deadline = clock.now() + timeoutMs;
  let attempts = 0;
  let lastError: unknown;
  let lastValue: unknown;
  for (;;) {
    options.signal?.throwIfAborted();
    attempts++;
    try {
      const v = await fn();
      if (v !== false) return v as Exclude<T, false>;
      lastValue = v;
      lastError = undefined;
    } catch (e) {
      lastError = e;
    }
    if (clock.now() >= deadline) {
      const what = options.message ? ` waiting for ${options.message}` : '';
      const last = lastError !== undefined ? `last error: ${describe(lastError)}` : `last value: ${describe(lastValue)}`;
      throw new EventuallyTimeoutError(
        `eventually timed out after ${timeoutMs} ms and ${attempts} attempts${what}; ${last}`,
        attempts,
        lastValue,
        {
          cause: lastError,
        },
      );
    }
    await clock.sleep(intervalMs, { signal: options.signal });
  }
}
