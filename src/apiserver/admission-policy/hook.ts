/**
 * The write pipeline's calls into policy admission. Mutating policies run on the decoded object
 * before the mutating webhooks (and once more after them for `IfNeeded` policies the webhooks'
 * changes concern); validating policies run on creates and updates after the strategy's validation,
 * and on deletes (with the stored object as `oldObject`) before the validating webhooks. Warnings
 * join the write's Warning headers.
 */
import type { KubeObject } from '../../meta/index.js';
import type { Scope } from '../registry/index.js';
import { admissionOnlyFields, shapeOf, unionFieldSets, type FieldSet } from '../apply/index.js';
import { admitWithPolicies } from './admit.js';
import type { AdmissionAttributes, Operation } from '../admission-cel/index.js';
import { mutateWithPolicies, newReinvocation } from './mutate.js';
import { ADMIN_USER } from '../ground/index.js';

const OPTIONS_KINDS = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' } as const;

export interface PolicyWrite {
  operation: Operation;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
  dryRun: boolean;
  fieldManager?: string;
}

function attributesOf(scope: Scope, w: PolicyWrite): AdmissionAttributes {
  const { strategy } = scope;
  const subject = w.object ?? w.oldObject;
  const fieldManager = w.fieldManager ?? scope.query.get('fieldManager') ?? undefined;
  const options = {
    kind: OPTIONS_KINDS[w.operation],
    apiVersion: 'meta.k8s.io/v1',
    ...(w.dryRun ? { dryRun: ['All'] } : {}),
    ...(fieldManager !== undefined && w.operation !== 'DELETE' ? { fieldManager } : {}),
  };
  return {
    operation: w.operation,
    group: strategy.group,
    version: scope.version,
    kind: strategy.kind,
    resource: strategy.plural,
    subresource: scope.subresource,
    name: subject?.metadata.name ?? scope.name,
    namespace: strategy.namespaced ? (subject?.metadata.namespace ?? scope.namespace) : '',
    object: w.object,
    oldObject: w.oldObject,
    dryRun: w.dryRun,
    userInfo: scope.req.user ?? ADMIN_USER,
    authorizer: scope.ctx.authorizer,
    options,
  };
}

/** Validating policies over a create or update, the object as it will be stored. */
export function admitWrite(scope: Scope, w: PolicyWrite & { warnings: string[] }): void {
  w.warnings.push(...admitWithPolicies(scope.ctx, attributesOf(scope, w)).warnings);
}

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
export function admitByPolicy(
  scope: Scope,
  request: { operation: Operation; object?: KubeObject; old?: KubeObject; dryRun: boolean },
): PolicyAdmission {
  const w: PolicyWrite = { operation: request.operation, object: request.object, oldObject: request.old, dryRun: request.dryRun };
  if (request.operation === 'DELETE' || request.object === undefined) {
    const warnings = request.old ? admitWithPolicies(scope.ctx, attributesOf(scope, w)).warnings : [];
    return { object: request.object, warnings, afterWebhooks: (o) => o, unowned: () => undefined };
  }
  const shape = shapeOf(scope.strategy, scope.version);
  const subresource = scope.subresource || undefined;
  const state = newReinvocation();
  const object = mutateWithPolicies(scope, attributesOf(scope, w), state);
  let unowned = object === request.object ? undefined : admissionOnlyFields(request.object, object, request.old, subresource, shape);
  return {
    object,
    warnings: [],
    afterWebhooks: (o) => {
      if (o === undefined || (state.pending.size === 0 && state.invoked.size === 0)) return o;
      const reinvoked = mutateWithPolicies(scope, attributesOf(scope, { ...w, object: o }), state, true);
      // What the reinvocation changed that admission had not already changed before it.
      const more = reinvoked === o ? undefined : admissionOnlyFields(o, reinvoked, request.object, subresource, shape);
      if (more) unowned = unowned ? unionFieldSets(unowned, more) : more;
      return reinvoked;
    },
    unowned: () => unowned,
  };
}
