/**
 * What admission knows of one write, the same for every webhook it calls: the operation, the
 * resource as addressed, the object before and after, the namespace's labels, and whether it is a
 * dry run. Invariant: built once per write by the handler; webhooks only ever see copies of it.
 */
import type { KubeObject } from '../../meta/index.js';
import type { CelAuthorizer } from '../cel/index.js';

/** The operations admission webhooks are called for (CONNECT is not served here). */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE';

/** One write as admission sees it. */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  group: string;
  version: string;
  kind: string;
  /** The resource's plural, e.g. `deployments`. */
  resource: string;
  /** `status`, `scale`, … or '' for the main resource. */
  subresource: string;
  namespaced: boolean;
  namespace: string;
  name: string;
  /** The object as it would be stored (absent for DELETE). */
  object?: KubeObject;
  /** The stored object (UPDATE and DELETE). */
  oldObject?: KubeObject;
  /** Labels of the object's namespace, for `namespaceSelector` (undefined: not namespaced, or no such namespace). */
  namespaceLabels?: Readonly<Record<string, string>> | undefined;
  dryRun: boolean;
  userInfo: { username: string; groups?: readonly string[] };
  /** What match conditions' `authorizer` asks about `userInfo` (the server's authorizer). */
  authorizer: CelAuthorizer;
  /** The CreateOptions, UpdateOptions or DeleteOptions of the request. */
  options?: Record<string, unknown>;
}
