/**
 * The OwnerReferencesPermissionEnforcement admission plugin: who may say what owns an object. An
 * update that changes `metadata.ownerReferences` needs `delete` on the object (a create does not:
 * whoever creates an object may say what owns it); an owner reference that newly blocks its owner's
 * deletion (`blockOwnerDeletion: true`, what `setControllerReference` sets) needs `update` on the
 * owner's `finalizers` subresource, the owner's resource found from its apiVersion and kind among
 * the served resources. Refusals are kube-apiserver's 403 messages. Invariant: it only ever asks the
 * authorizer for users RBAC applies to (never the trusted in-process caller nor `system:masters`, so
 * their writes cost nothing more), and every check it asks is recorded with the user's requests, so
 * `converge rbac` grants what a cluster with the plugin on will ask for.
 */
import {
  InvalidOptionError,
  jsonEqual,
  parseGroupVersion,
  type GroupVersion,
  type KubeObject,
  type OwnerReference,
} from '../../meta/index.js';
import type { Scope } from '../registry/index.js';
import { forbiddenRequest } from '../ground/index.js';
import { isMaster } from '../ground/index.js';
import type { ResourceAttributes } from '../ground/index.js';

/** Pod status writes are exempt: the status strategy keeps a Pod's metadata as stored. */
const exempt = (scope: Scope): boolean => scope.strategy.group === '' && scope.strategy.plural === 'pods' && scope.subresource === 'status';

const refsOf = (o: KubeObject | undefined): OwnerReference[] => o?.metadata.ownerReferences ?? [];

function changesOwnerReferences(object: KubeObject, old: KubeObject | undefined): boolean {
  const now = refsOf(object);
  if (!old) return now.length > 0;
  const before = refsOf(old);
  return now.length !== before.length || now.some((ref, i) => !jsonEqual(ref, before[i]));
}

/** The references that block their owner's deletion and did not before (matched by owner uid). */
function newlyBlocking(object: KubeObject, old: KubeObject | undefined): OwnerReference[] {
  const blockedBefore = new Set(
    refsOf(old)
      .filter((r) => r.blockOwnerDeletion === true)
      .map((r) => r.uid),
  );
  return refsOf(object).filter((r) => r.blockOwnerDeletion === true && !blockedBefore.has(r.uid));
}

/** The group and version of `apiVersion`, or why it is not one (meta's parser says). */
function groupVersionOf(apiVersion: string): GroupVersion | string {
  try {
    return parseGroupVersion(apiVersion);
  } catch (e) {
    if (e instanceof InvalidOptionError) return e.reason;
    throw e;
  }
}

/** The `update <owner>/finalizers` checks one reference needs, or why its kind cannot be mapped to a resource. */
function finalizerChecks(scope: Scope, ref: OwnerReference, namespace: string): ResourceAttributes[] | string {
  const gv = groupVersionOf(ref.apiVersion ?? '');
  if (typeof gv === 'string') return gv;
  const owners = scope.ctx.registry
    .strategies()
    .filter((s) => s.group === gv.group && s.kind === ref.kind && s.version(gv.version)?.served === true);
  if (owners.length === 0) return `no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`;
  return owners.map((s) => ({
    kind: 'resource',
    verb: 'update',
    apiGroup: gv.group,
    apiVersion: gv.version,
    resource: s.plural,
    subresource: 'finalizers',
    // An owner is in its dependent's namespace, or cluster-scoped.
    namespace: s.namespaced ? namespace : '',
    name: ref.name ?? '',
  }));
}

/** Throws the 403 kube-apiserver answers when the request's user may not set `object`'s owner references. */
export function enforceOwnerReferencePermissions(scope: Scope, object: KubeObject, old: KubeObject | undefined): void {
  const user = scope.req.user;
  if (user === undefined || isMaster(user) || exempt(scope) || !changesOwnerReferences(object, old)) return;
  const { strategy, ctx } = scope;
  const namespace = strategy.namespaced ? (object.metadata.namespace ?? scope.namespace) : '';
  const name = object.metadata.name || object.metadata.generateName || 'Unknown';
  const refuse = (why: string) => forbiddenRequest(strategy.group, strategy.plural, name, why);
  if (old) {
    const deletion: ResourceAttributes = {
      kind: 'resource',
      verb: 'delete',
      apiGroup: strategy.group,
      apiVersion: scope.version,
      resource: strategy.plural,
      subresource: scope.subresource,
      namespace,
      name: object.metadata.name ?? '',
    };
    const d = ctx.authorizeAdmission(user, deletion);
    if (!d.allowed) throw refuse(`cannot set an ownerRef on a resource you can't delete: ${d.reason}, <nil>`);
  }
  for (const ref of newlyBlocking(object, old)) {
    const checks = finalizerChecks(scope, ref, namespace);
    if (typeof checks === 'string') {
      throw refuse(
        `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: ${checks}`,
      );
    }
    for (const a of checks) {
      const d = ctx.authorizeAdmission(user, a);
      if (!d.allowed) {
        throw refuse(
          `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${d.reason}, <nil>`,
        );
      }
    }
  }
}
