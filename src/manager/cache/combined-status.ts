/**
 * The reflector status of an informer made of several member informers (one per namespace, or one
 * per owned shard): the least settled member's phase and last error, with reconnects, relists and
 * errors summed over all members. Invariant: a composite never looks healthier than its worst member.
 */
import type { ReflectorStatus } from '../../cache/index.js';

/** Phases from least to most settled. */
const PHASE_ORDER: readonly ReflectorStatus['phase'][] = ['stopped', 'backoff', 'idle', 'listing', 'streaming', 'watching'];

/** Combines at least one member status. */
export function combineReflectorStatuses(statuses: readonly [ReflectorStatus, ...ReflectorStatus[]]): ReflectorStatus {
  const worst = statuses.reduce((a, b) => (PHASE_ORDER.indexOf(b.phase) < PHASE_ORDER.indexOf(a.phase) ? b : a));
  const errors = { ...worst.errors };
  for (const s of statuses) {
    if (s === worst) continue;
    for (const [reason, n] of Object.entries(s.errors) as [keyof typeof errors, number][]) errors[reason] += n;
  }
  return {
    ...worst,
    reconnects: statuses.reduce((n, s) => n + s.reconnects, 0),
    relists: statuses.reduce((n, s) => n + s.relists, 0),
    errors,
  };
}
