/**
 * Status conditions, with the semantics of apimachinery's `meta.SetStatusCondition` and friends. The
 * list is mutated in place (condition order is kept; new types are appended), and setters report
 * whether anything changed, so a reconciler writes status only when it must.
 *
 * Invariant: `lastTransitionTime` moves only when a condition's `status` changes, so it records when
 * the condition last flipped, not when it was last written. Reason, message and observedGeneration
 * always take the new values (an omitted reason or message is the empty string; an omitted
 * observedGeneration is 0, which is left off the object like Go's `omitempty`).
 */
import type { Condition } from './object.js';
import { formatTimestamp } from './timestamp.js';

/** The three values of a condition's `status`, as Kubernetes spells them. */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** What a reconciler says about a condition; `lastTransitionTime` defaults to `now` when it is set. */
export interface NewCondition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

/**
 * Sets `c` in `conditions`: appends it if its type is new, otherwise updates the existing entry.
 * `now` stamps `lastTransitionTime` when the status changes (or when the entry has none).
 * Returns true when the list changed.
 */
export function setStatusCondition(conditions: Condition[], c: NewCondition, now: Date | number): boolean {
  const existing = findStatusCondition(conditions, c.type);
  if (existing === undefined) {
    const added: Condition = {
      type: c.type,
      status: c.status,
      reason: c.reason ?? '',
      message: c.message ?? '',
      lastTransitionTime: c.lastTransitionTime ?? formatTimestamp(now),
    };
    if (c.observedGeneration) added.observedGeneration = c.observedGeneration;
    conditions.push(added);
    return true;
  }
  let changed = false;
  if (existing.status !== c.status) {
    existing.status = c.status;
    existing.lastTransitionTime = c.lastTransitionTime ?? formatTimestamp(now);
    changed = true;
  } else if (!existing.lastTransitionTime) {
    // The field is required by the API; an entry written without it gets one rather than failing validation.
    existing.lastTransitionTime = c.lastTransitionTime ?? formatTimestamp(now);
    changed = true;
  }
  const reason = c.reason ?? '';
  if (existing.reason !== reason) {
    existing.reason = reason;
    changed = true;
  }
  const message = c.message ?? '';
  if (existing.message !== message) {
    existing.message = message;
    changed = true;
  }
  const generation = c.observedGeneration ?? 0;
  if ((existing.observedGeneration ?? 0) !== generation) {
    if (generation === 0) delete existing.observedGeneration;
    else existing.observedGeneration = generation;
    changed = true;
  }
  return changed;
}

/** The condition of this type, or undefined. */
export function findStatusCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** Removes every condition of this type; returns true when one was removed. */
export function removeStatusCondition(conditions: Condition[], type: string): boolean {
  let kept = 0;
  for (const c of conditions) if (c.type !== type) conditions[kept++] = c;
  const removed = kept !== conditions.length;
  conditions.length = kept;
  return removed;
}

/** True when a condition of this type is present with exactly this status. */
export function isStatusConditionPresentAndEqual(
  conditions: readonly Condition[] | undefined,
  type: string,
  status: ConditionStatus,
): boolean {
  return findStatusCondition(conditions, type)?.status === status;
}

/** True when the condition is present and `True`. */
export const isStatusConditionTrue = (conditions: readonly Condition[] | undefined, type: string): boolean =>
  isStatusConditionPresentAndEqual(conditions, type, 'True');

/** True when the condition is present and `False` (absent or `Unknown` is neither true nor false). */
export const isStatusConditionFalse = (conditions: readonly Condition[] | undefined, type: string): boolean =>
  isStatusConditionPresentAndEqual(conditions, type, 'False');
