/**
 * The admission attributes of one write, built once per request from the handler's scope: the
 * options as the query gave them, the user (or the server's own stand-in), and, once validation has
 * it, a create's generated name. Invariant: `attributesOf` is the only maker of `Attributes`; every
 * policy and webhook step reads the record it returns.
 */
import type { KubeObject } from '../../meta/index.js';
import type { AdmissionUser, Attributes, Operation } from '../admission-cel/index.js';
import type { Scope } from '../registry/index.js';

/** One write as a handler hands it to admission. */
export interface WriteRequest {
  operation: Operation;
  object?: KubeObject | undefined;
  old?: KubeObject | undefined;
  dryRun: boolean;
}

const OPTIONS_KINDS = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' } as const;

/**
 * The options kube-apiserver decodes from the query and hands to admission: `fieldManager` only as
 * the client sent it (the User-Agent default is the field manager's, not the options').
 */
function optionsOf(scope: Scope, w: WriteRequest): Record<string, unknown> {
  const fieldManager = scope.query.get('fieldManager');
  return {
    kind: OPTIONS_KINDS[w.operation],
    apiVersion: 'meta.k8s.io/v1',
    ...(w.dryRun ? { dryRun: ['All'] } : {}),
    ...(fieldManager !== null && w.operation !== 'DELETE' ? { fieldManager } : {}),
  };
}

/** The attributes of the write `w` sent through `scope`, `user` standing in for a request without one (the server's own). */
export function attributesOf(scope: Scope, w: WriteRequest, user: AdmissionUser): Attributes {
  const { strategy } = scope;
  const subject = w.object ?? w.old;
  return {
    operation: w.operation,
    group: strategy.group,
    version: scope.version,
    kind: strategy.kind,
    resource: strategy.plural,
    subresource: scope.subresource,
    namespaced: strategy.namespaced,
    namespace: strategy.namespaced ? (subject?.metadata.namespace ?? scope.namespace) : '',
    name: subject?.metadata.name ?? scope.name,
    object: w.object,
    oldObject: w.old,
    options: optionsOf(scope, w),
    dryRun: w.dryRun,
    userInfo: scope.req.user ?? user,
    authorizer: scope.ctx.authorizer,
    kubernetesMinor: scope.ctx.kubernetesMinor,
  };
}

/**
 * The attributes as validation sees them: the object as it would be stored, and its name once the
 * server generated one (kube-apiserver fills a create's empty name in from the object there).
 */
export function validated(a: Attributes, object: KubeObject | undefined): Attributes {
  return { ...a, object, name: a.name || (object?.metadata.name ?? '') };
}
