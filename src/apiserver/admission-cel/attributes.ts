/**
 * What admission knows of one write, as kube-apiserver's `admission.Attributes` holds it: the
 * operation, the kind and resource as the request addressed them, the object before and after, the
 * request's options, whether it is a dry run, and who sends it. One record serves every mutating and
 * validating policy and webhook, and the CEL they evaluate reads its `request` from it (so it lives
 * here, beside that CEL, below the registry). Invariant: built once per request by admission's
 * `attributesOf`; a step of the chain sees a copy whose `object` is the object as that step receives
 * it, never a record of its own.
 */
import type { KubeObject } from '../../meta/index.js';
import type { CelAuthorizer } from '../cel/index.js';
import type { UserInfo } from '../ground/index.js';

/** The operations admitted here (CONNECT is not: no connect subresource is served). */
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/** Who sends the write, as authentication named them. */
export type AdmissionUser = UserInfo;

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
  /** The Kubernetes minor the server behaves as (whether admission expressions pay library costs). */
  kubernetesMinor: number;
}
