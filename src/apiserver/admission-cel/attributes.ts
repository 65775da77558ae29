/**
 * What admission knows of one write: the operation, the resource and kind it goes through, the
 * object before and after, the request's options and the authorizer to ask about its user. Built by
 * the write pipeline, read by the matchers and turned into the CEL `request` and `authorizer` variables.
 */
import type { KubeObject } from '../../meta/index.js';
import type { UserInfo } from '../ground/index.js';
import type { CelAuthorizer } from '../cel/index.js';

/** The operations policies are run for here (CONNECT is not admitted by policy: no connect subresource is served). */
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface AdmissionAttributes {
  operation: Operation;
  group: string;
  version: string;
  kind: string;
  /** The resource's plural. */
  resource: string;
  /** '' for the main resource, `status`, `scale`, … */
  subresource: string;
  name: string;
  /** '' for cluster-scoped resources. */
  namespace: string;
  /** The object after the write (absent on DELETE). */
  object: KubeObject | undefined;
  /** The stored object before the write (absent on CREATE). */
  oldObject: KubeObject | undefined;
  dryRun: boolean;
  /** Who sends the write, as authentication named them. */
  userInfo: UserInfo;
  /** What the expressions' `authorizer` asks about `userInfo` (the server's authorizer). */
  authorizer: CelAuthorizer;
  /** The options of the verb: `CreateOptions`, `UpdateOptions` or `DeleteOptions`. */
  options: Record<string, unknown>;
}
