/**
 * The admission chain's calls into policy admission. Mutating policies run on the decoded object
 * before the mutating webhooks (and once more after them for `IfNeeded` policies the webhooks'
 * changes concern); validating policies run on creates and updates inside the write, after its own
 * validation, and on deletes (with the stored object as `oldObject`) before the validating webhooks.
 * Invariant: every call reads the request's one `Attributes`, with the object as that step has it.
 */
import type { KubeObject } from '../../../meta/index.js';
import type { Scope } from '../../registry/index.js';
import { admissionOnlyFields, shapeOf, unionFieldSets, type FieldSet } from '../../apply/index.js';
import type { Attributes } from '../../admission-cel/index.js';
import type { MatchContext } from '../matching.js';
import { admitWithPolicies } from './admit.js';
import { mutateWithPolicies, newReinvocation } from './mutate.js';

/** Validating policies over the write `a`; answers the warnings they add. */
export const validateByPolicy = (scope: Scope, a: Attributes, m: MatchContext): string[] => admitWithPolicies(scope.ctx, a, m).warnings;

/** What policy admission did before the webhooks, and the step it still has to take after them. */
export interface PolicyAdmission {
  /** The object as the mutating policies left it (the request's, for a delete). */
  object: KubeObject | undefined;
  warnings: string[];
  /** The object after the mutating webhooks, with `IfNeeded` policies reinvoked where needed. */
  afterWebhooks(object: KubeObject | undefined): KubeObject | undefined;
  /**
   * The fields the policies set that the request did not (complete once `afterWebhooks` ran): the
   * real server records managed fields before admission, so no manager owns them.
   */
  unowned(): FieldSet | undefined;
}

/**
 * The policy admission of a write before its webhooks: mutating policies for a create or update,
 * validating policies for a delete of a stored object.
 */
export function admitByPolicy(scope: Scope, a: Attributes, m: MatchContext): PolicyAdmission {
  const requested = a.object;
  if (a.operation === 'DELETE' || requested === undefined) {
    const warnings = a.oldObject ? validateByPolicy(scope, a, m) : [];
    return { object: requested, warnings, afterWebhooks: (o) => o, unowned: () => undefined };
  }
  const shape = shapeOf(scope.strategy, scope.version);
  const subresource = scope.subresource || undefined;
  const state = newReinvocation();
  const object = mutateWithPolicies(scope, a, m, state);
  let unowned = object === requested ? undefined : admissionOnlyFields(requested, object, a.oldObject, subresource, shape);
  return {
    object,
    warnings: [],
    afterWebhooks: (o) => {
      if (o === undefined || (state.pending.size === 0 && state.invoked.size === 0)) return o;
      const reinvoked = mutateWithPolicies(scope, { ...a, object: o }, m, state, true);
      // What the reinvocation changed that admission had not already changed before it.
      const more = reinvoked === o ? undefined : admissionOnlyFields(o, reinvoked, requested, subresource, shape);
      if (more) unowned = unowned ? unionFieldSets(unowned, more) : more;
      return reinvoked;
    },
    unowned: () => unowned,
  };
}
