/**
 * The reflector's state machine: one discriminated union of states, one pure
 * transition function. The runner in reflector.ts performs the action each state names (list,
 * stream, watch, wait) and feeds the outcome back as an input; every decision, in particular which
 * resourceVersion to ask for, is made here, so it can be tested without I/O.
 *
 *            start                 listed / streamed (stream handed over)
 *   idle ──────────▶ streaming ─┬──────────────────────────────▶ watching ◀──┐ watchEnded, or cut after
 *            │          │ failed (not 410/429): fall back          │ │ │     └─ it was established
 *            │          ▼                                          │ │ │        (at once, no relist)
 *            └────▶ listing ───────────────────────────────────────┘ │ │ 429 / refused / cut before
 *                     ▲  │ 410: flag RV unavailable, retry at once   │ │ it was established
 *                     │  │      with ""                              │ └──▶ backoff(then watch) ──┐
 *                     │  └─ other failure ──▶ backoff(then relist) ◀─┘ 410 or other failure      │
 *                     └──────────── waited ─────────┘                  watching ◀── waited ───────┘
 *   any state ── stop ──▶ stopped
 *
 * A watch that broke (connection reset, EOF, silence) after it was established says nothing about
 * the resourceVersion or the server's health, so it resumes from the last RV at once, as client-go
 * does after a clean close. A watch that cannot be established for want of a connection (refused,
 * cut before it delivered anything) or because of 429 backs off and tries the watch again, still
 * without relisting: the RV stays good until the server answers 410.
 *
 * resourceVersion choice (client-go `relistResourceVersion` / `rewatchResourceVersion`):
 *
 *   | request            | RV unavailable flag | nothing synced yet | otherwise     |
 *   |--------------------|---------------------|--------------------|---------------|
 *   | LIST               | ""                  | "0"                | last synced   |
 *   | streaming list     | ""                  | ""                 | last synced   |
 *   | WATCH              | always the last synced RV                                |
 *
 * The flag is set when a list or streaming list fails with 410 Expired or "too large resource
 * version", and cleared by any successful list; a 410 during a plain watch does not set it, so the
 * relist first tries the last synced RV (served from the watch cache) and only then "".
 */
import assert from 'node:assert/strict';
import type { WatchErrorReason } from './types.js';

/**
 * How an outcome's error matters to the state machine (what `classifyFailure` derives).
 * `disconnected`: the connection broke or went silent (reset, EOF, or the watch stream's inactivity
 * watchdog), not an answer of the server.
 */
export type FailureKind = 'expired' | 'tooManyRequests' | 'connectionRefused' | 'disconnected' | 'rejected' | 'other';

export type ReflectorState<S> =
  | { readonly kind: 'idle' }
  | { readonly kind: 'streaming'; readonly resourceVersion: string }
  | { readonly kind: 'listing'; readonly resourceVersion: string }
  /** `handover` is the stream a streaming list ended on: it continues as the steady-state watch. */
  | { readonly kind: 'watching'; readonly resourceVersion: string; readonly handover?: S }
  | { readonly kind: 'backoff'; readonly then: 'relist' | 'watch'; readonly retryAfterMs: number }
  | { readonly kind: 'stopped' };

export type ReflectorInput<S> =
  | { readonly kind: 'start' }
  | { readonly kind: 'listed'; readonly resourceVersion: string; readonly paginated: boolean }
  | { readonly kind: 'streamed'; readonly resourceVersion: string; readonly stream: S }
  /** The watch closed cleanly (server timeout or end of stream); `resourceVersion` is the last one seen. */
  | { readonly kind: 'watchEnded'; readonly resourceVersion: string }
  | {
      readonly kind: 'failed';
      readonly failure: FailureKind;
      readonly retryAfterMs: number;
      /** The last resourceVersion seen before the failure (watching only). */
      readonly resourceVersion?: string;
      /**
       * Watching only: the watch had been established (it delivered an event, or stayed open past the
       * very-short-watch limit) before it failed. A watch that fails sooner was never established.
       */
      readonly established?: boolean;
    }
  | { readonly kind: 'waited' }
  | { readonly kind: 'stop' };

export interface ReflectorMemory {
  readonly lastSyncResourceVersion: string;
  /** client-go's `isLastSyncResourceVersionUnavailable`. */
  readonly resourceVersionUnavailable: boolean;
  /** Streaming lists are enabled and the server has not rejected them. */
  readonly watchList: boolean;
  /** An earlier RV="0" list came back in pages, so later lists page too (client-go `paginatedResult`). */
  readonly paginatedResult: boolean;
}

export const initialMemory = (watchList: boolean): ReflectorMemory =>
  Object.freeze({ lastSyncResourceVersion: '', resourceVersionUnavailable: false, watchList, paginatedResult: false });

export function relistResourceVersion(m: ReflectorMemory): string {
  if (m.resourceVersionUnavailable) return '';
  return m.lastSyncResourceVersion === '' ? '0' : m.lastSyncResourceVersion;
}

export function rewatchResourceVersion(m: ReflectorMemory): string {
  return m.resourceVersionUnavailable ? '' : m.lastSyncResourceVersion;
}

/** The state that (re)populates the store: a streaming list when allowed, else a list. */
function relist<S>(m: ReflectorMemory): ReflectorState<S> {
  return m.watchList
    ? { kind: 'streaming', resourceVersion: rewatchResourceVersion(m) }
    : { kind: 'listing', resourceVersion: relistResourceVersion(m) };
}

const backoff = <S>(then: 'relist' | 'watch', retryAfterMs = 0): ReflectorState<S> => ({ kind: 'backoff', then, retryAfterMs });

/** The whole policy. Pure: same inputs, same outputs. */
export function transition<S>(s: ReflectorState<S>, input: ReflectorInput<S>, m: ReflectorMemory): [ReflectorState<S>, ReflectorMemory] {
  if (input.kind === 'stop' || s.kind === 'stopped') return [{ kind: 'stopped' }, m];
  switch (s.kind) {
    case 'idle':
      return [relist(m), m];

    case 'streaming':
      if (input.kind === 'streamed') {
        const next = { ...m, lastSyncResourceVersion: input.resourceVersion, resourceVersionUnavailable: false };
        return [{ kind: 'watching', resourceVersion: input.resourceVersion, handover: input.stream }, next];
      }
      if (input.kind !== 'failed') break;
      switch (input.failure) {
        case 'expired': {
          const next = { ...m, resourceVersionUnavailable: true };
          // Retry at once with "" (a consistent read); if "" itself expired, something is wrong: back off.
          return [s.resourceVersion === '' ? backoff('relist') : relist(next), next];
        }
        case 'tooManyRequests':
        case 'connectionRefused':
          return [backoff('relist', input.retryAfterMs), m];
        case 'rejected': {
          // The server does not do streaming lists: stop asking, list instead from now on.
          const next = { ...m, watchList: false };
          return [relist(next), next];
        }
        case 'disconnected':
        case 'other':
          // As client-go: this attempt falls back to a list; the next relist tries streaming again.
          return [{ kind: 'listing', resourceVersion: relistResourceVersion(m) }, m];
      }
      break;

    case 'listing':
      if (input.kind === 'listed') {
        const next = {
          ...m,
          lastSyncResourceVersion: input.resourceVersion,
          resourceVersionUnavailable: false,
          paginatedResult: m.paginatedResult || (s.resourceVersion === '0' && input.paginated),
        };
        return [{ kind: 'watching', resourceVersion: input.resourceVersion }, next];
      }
      if (input.kind !== 'failed') break;
      if (input.failure === 'expired') {
        const next = { ...m, resourceVersionUnavailable: true };
        return [s.resourceVersion === '' ? backoff('relist') : { kind: 'listing', resourceVersion: '' }, next];
      }
      return [backoff('relist', input.retryAfterMs), m];

    case 'watching': {
      if (input.kind === 'watchEnded') {
        const next = { ...m, lastSyncResourceVersion: input.resourceVersion };
        return [{ kind: 'watching', resourceVersion: input.resourceVersion }, next];
      }
      if (input.kind !== 'failed') break;
      const next = input.resourceVersion === undefined ? m : { ...m, lastSyncResourceVersion: input.resourceVersion };
      switch (input.failure) {
        case 'disconnected':
          // A cut: resume at once. Failing to establish the watch again is what backs off.
          return [input.established ? { kind: 'watching', resourceVersion: next.lastSyncResourceVersion } : backoff('watch'), next];
        case 'tooManyRequests':
        case 'connectionRefused':
          return [backoff('watch', input.retryAfterMs), next];
        default:
          // 410 (the RV fell out of the server's window) and everything else: relist after the backoff.
          return [backoff('relist'), next];
      }
    }

    case 'backoff':
      if (input.kind !== 'waited') break;
      return [s.then === 'watch' ? { kind: 'watching', resourceVersion: m.lastSyncResourceVersion } : relist(m), m];
  }
  assert.fail(
    `reflector: input ${input.kind} cannot happen in state ${s.kind} (the runner only reports outcomes of the state's own action)`,
  );
}

/** What an error means to the state machine, how it is counted, and how long the server asked us to wait. */
export function classifyFailure(error: unknown): { failure: FailureKind; reason: WatchErrorReason; retryAfterMs: number } {
  const status = statusOf(error);
  if (status) {
    const code = status.code ?? 0;
    if (code === 410 || status.reason === 'Expired' || status.reason === 'Gone')
      return { failure: 'expired', reason: 'gone', retryAfterMs: 0 };
    if (code === 429 || status.reason === 'TooManyRequests') {
      const seconds = status.details?.retryAfterSeconds ?? 0;
      return { failure: 'tooManyRequests', reason: 'tooManyRequests', retryAfterMs: seconds * 1000 };
    }
    if (isTooLargeResourceVersion(status)) return { failure: 'expired', reason: 'other', retryAfterMs: 0 };
    // Answers that mean "this request is not supported here", as opposed to "not now".
    if (code === 400 || code === 404 || code === 405 || code === 406 || code === 415 || code === 422 || code === 501) {
      return { failure: 'rejected', reason: 'other', retryAfterMs: 0 };
    }
    return { failure: 'other', reason: 'other', retryAfterMs: 0 };
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'CONVERGE_NETWORK') {
    return { failure: hasCause(error, 'ECONNREFUSED') ? 'connectionRefused' : 'disconnected', reason: 'network', retryAfterMs: 0 };
  }
  return { failure: 'other', reason: 'other', retryAfterMs: 0 };
}

interface StatusLike {
  code?: number;
  reason?: string;
  message?: string;
  details?: { retryAfterSeconds?: number; causes?: { reason?: string; message?: string }[] };
}

/** The `Status` of a client `StatusError` (or a bare Status, as a watch ERROR event carries). */
function statusOf(error: unknown): StatusLike | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  if ((error as { code?: unknown }).code === 'CONVERGE_API_STATUS') return (error as { status: StatusLike }).status;
  if ((error as { kind?: unknown }).kind === 'Status') return error as StatusLike;
  return undefined;
}

function isTooLargeResourceVersion(s: StatusLike): boolean {
  if (s.details?.causes?.some((c) => c.reason === 'ResourceVersionTooLarge')) return true;
  return (s.code === 504 || s.reason === 'Timeout') && (s.message ?? '').includes('Too large resource version');
}

function hasCause(error: unknown, errno: string): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === errno) return true;
  }
  return false;
}
