/**
 * The conditions the namespace controller keeps on a terminating namespace, worded as
 * kube-controller-manager words them: each pass sets all five types, True with a failure reason
 * where the pass found one, else False with the type's success reason and message. A condition
 * keeps its `lastTransitionTime` unless its status flips; nothing is written when nothing changed.
 * Pure: the caller reads the namespace's content and stores the result.
 *
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/namespace/deletion/status_condition_utils.go
 */

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** What a pass left in the namespace: objects per `<resource>.<group>`, and how many carry each finalizer. */
export interface ContentTotals {
  resources: ReadonlyMap<string, number>;
  finalizers: ReadonlyMap<string, number>;
}

/** The five types, in the order the controller first adds them, with their success reason and message. */
const SUCCESS: readonly [type: string, reason: string, message: string][] = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  ['NamespaceDeletionContentFailure', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
];

/** `name has N resource instances`-style parts, sorted as Go sorts strings (by code unit, for ASCII the same). */
const listed = (counts: ReadonlyMap<string, number>, format: (name: string, n: number) => string): string =>
  [...counts]
    .filter(([, n]) => n > 0)
    .map(([name, n]) => format(name, n))
    .sort()
    .join(', ');

interface Outcome {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** The failing conditions a pass with `totals` left found. */
function failures(totals: ContentTotals): Map<string, Outcome> {
  const out = new Map<string, Outcome>();
  if (totals.resources.size > 0) {
    out.set('NamespaceContentRemaining', {
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${listed(totals.resources, (r, n) => `${r} has ${n} resource instances`)}`,
    });
  }
  if (totals.finalizers.size > 0) {
    out.set('NamespaceFinalizersRemaining', {
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${listed(totals.finalizers, (f, n) => `${f} in ${n} resource instances`)}`,
    });
  }
  return out;
}

/**
 * The namespace's conditions after a pass that left `totals`, starting from `existing` (other
 * condition types are kept as they are); undefined when nothing changes. `now` stamps new
 * conditions and status flips.
 */
export function namespaceDeletionConditions(
  existing: readonly NamespaceCondition[],
  totals: ContentTotals,
  now: string,
): NamespaceCondition[] | undefined {
  const found = failures(totals);
  const conditions = existing.map((c) => ({ ...c }));
  let changed = false;
  for (const [type, reason, message] of SUCCESS) {
    const next: Outcome = found.get(type) ?? { status: 'False', reason, message };
    const old = conditions.find((c) => c.type === type);
    if (old === undefined) {
      conditions.push({ type, status: next.status, lastTransitionTime: now, reason: next.reason, message: next.message });
      changed = true;
    } else if (old.status !== next.status || old.reason !== next.reason || old.message !== next.message) {
      if (old.status !== next.status) old.lastTransitionTime = now;
      old.status = next.status;
      old.reason = next.reason;
      old.message = next.message;
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}
