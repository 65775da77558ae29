/**
 * Timestamps as `metav1.Time` puts them on the wire: RFC 3339 in UTC with whole seconds
 * (`2026-01-02T03:04:05Z`). Sub-second parts are truncated, not rounded, as Go's formatting does, so
 * a time never appears to lie in the future of the instant it was taken.
 */
import { InvalidOptionError } from './errors.js';

/** Formats milliseconds since the epoch (or a Date) as `YYYY-MM-DDTHH:MM:SSZ`. */
export function formatTimestamp(time: Date | number): string {
  const ms = typeof time === 'number' ? time : time.getTime();
  if (!Number.isFinite(ms)) throw new InvalidOptionError('time', `must be a valid time, got ${String(time)}`);
  const floored = Math.floor(ms / 1000) * 1000;
  return new Date(floored).toISOString().replace('.000Z', 'Z');
}
