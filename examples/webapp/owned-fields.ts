/**
 * Drift detection over the fields an operator owns. A child's desired state names only the fields
 * the operator cares about; the server and other actors fill in the rest (defaults such as a
 * container's `imagePullPolicy`, other teams' labels). `mergeOwned` brings an object's owned fields
 * to the desired values and leaves everything else alone, so a merge patch computed afterwards is
 * empty exactly when nothing owned drifted — which is what keeps the operator from no-op writes.
 *
 * Rules: objects merge key by key (keys absent from `desired` are not owned); arrays are owned
 * whole, but an array counts as matching when it has the same length and each element covers the
 * desired element (so server-defaulted fields inside list items are not drift).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when `current` has every owned field of `desired` at the desired value. */
export function coversOwned(current: unknown, desired: unknown): boolean {
  if (Array.isArray(desired)) {
    return Array.isArray(current) && current.length === desired.length && desired.every((d, i) => coversOwned(current[i], d));
  }
  if (isObject(desired)) {
    return isObject(current) && Object.entries(desired).every(([k, d]) => d === undefined || coversOwned(current[k], d));
  }
  return current === desired;
}

/** Sets the owned fields of `target` (mutated) to `desired`, leaving fields `desired` does not name. */
export function mergeOwned(target: Record<string, unknown>, desired: Record<string, unknown>): void {
  for (const [k, d] of Object.entries(desired)) {
    if (d === undefined) continue;
    const current = target[k];
    if (isObject(d) && isObject(current)) mergeOwned(current, d);
    else if (!coversOwned(current, d)) target[k] = structuredClone(d as Json);
  }
}
