/**
 * Timestamps as `metav1.Time` and `metav1.MicroTime` put them on the wire: RFC 3339 in UTC, with
 * whole seconds (`2026-01-02T03:04:05Z`) or six fraction digits (`2026-01-02T03:04:05.123456Z`).
 * Sub-second parts are truncated, not rounded, as Go's formatting does, so a time never appears to
 * lie in the future of the instant it was taken.
 */
import { InvalidOptionError } from './errors.js';

let lastSecond = NaN;
let lastText = '';

function millisOf(time: Date | number): number {
  const ms = typeof time === 'number' ? time : time.getTime();
  if (!Number.isFinite(ms)) throw new InvalidOptionError('time', `must be a valid time, got ${String(time)}`);
  return ms;
}

/** `YYYY-MM-DDTHH:MM:SS` of a whole second, reused while the second lasts (a write stamps it twice). */
function secondText(second: number): string {
  if (second !== lastSecond) {
    lastSecond = second;
    lastText = new Date(second * 1000).toISOString().slice(0, -5);
  }
  return lastText;
}

/** Formats milliseconds since the epoch (or a Date) as `YYYY-MM-DDTHH:MM:SSZ`. */
export function formatTimestamp(time: Date | number): string {
  return `${secondText(Math.floor(millisOf(time) / 1000))}Z`;
}

/**
 * Formats milliseconds since the epoch (or a Date) as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, the
 * `metav1.MicroTime` of events and leases. `micros`, when given, is the microsecond within the second
 * (a decoded wire value carries it); otherwise the time's milliseconds are padded.
 * @extension
 */
export function formatMicroTime(time: Date | number, micros?: number): string {
  const ms = millisOf(time);
  const second = Math.floor(ms / 1000);
  const fraction = micros ?? Math.floor(ms - second * 1000) * 1000;
  if (!Number.isInteger(fraction) || fraction < 0 || fraction > 999_999)
    throw new InvalidOptionError('micros', `must be a whole number of microseconds from 0 to 999999, got ${String(fraction)}`);
  return `${secondText(second)}.${String(fraction).padStart(6, '0')}Z`;
}
