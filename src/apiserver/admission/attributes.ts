/**
 * What admission knows of one write, as kube-apiserver's `admission.Attributes` holds it: the
 * operation, the kind and resource as the request addressed them, the object before and after, the
 * request's options, whether it is a dry run, and who sends it. One record serves every mutating and
 * validating policy and webhook. Invariant: built once per request by `attributesOf`; a step of the
 * chain sees a copy whose `object` is the object as that step receives it, never a record of its own.
 */
import type { KubeObject } from '../../meta/index.js';
import type { CelAuthorizer } from '../cel/index.js';
import type { Scope } from '../context.js';

/** The operations admitted here (CONNECT is not: no connect subresource is served). */
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/** Who sends the write, as authentication named them. */
export type AdmissionUser = NonNullable<Scope['req']['user']>;

export interface Attributes {
  operation: Operation;
  group: string;
  version: string;
  kind: string;
  /** The resource's plural, e.g. `deployments`. */
  resource: string;
  /** `status`, `scale`, … or '' for the main resource. */
  subresource: string;
  namespaced: boolean;
  /** '' for cluster-scoped resources. */
  namespace: string;
  /** '' for a create whose name the server generates, until the object has one. */
  name: string;
  /** The object as the write would leave it (absent for DELETE). */
  object: KubeObject | undefined;
  /** The stored object (UPDATE and DELETE). */
  oldObject: KubeObject | undefined;
  /** The verb's `CreateOptions`, `UpdateOptions` or `DeleteOptions`, as its query gave them. */
  options: Record<string, unknown>;
  dryRun: boolean;
  userInfo: AdmissionUser;
  /** What CEL's `authorizer` asks about `userInfo` (the server's authorizer). */
  authorizer: CelAuthorizer;
}

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
  };
}

/**
 * The attributes as validation sees them: the object as it would be stored, and its name once the
 * server generated one (kube-apiserver fills a create's empty name in from the object there).
 */
export function validated(a: Attributes, object: KubeObject | undefined): Attributes {
  return { ...a, object, name: a.name || (object?.metadata.name ?? '') };
}
