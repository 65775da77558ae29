/**
 * The CEL variables every admission expression reads of the write, the same for policies and for
 * webhooks' match conditions: `request` (the `admission.k8s.io` AdmissionRequest, its `kind` and
 * `resource` the ones a rule matched, `requestKind` and `requestResource` the request's own) and
 * `authorizer` (checks for the request's user, `authorizer.requestResource` the request's resource).
 */
import { celAuthorizer, toCelValue, type CelType } from '../cel/index.js';
import type { Attributes } from './attributes.js';
import type { Matched } from './versioned.js';

const DYN: CelType = { kind: 'dyn' };

/** The AdmissionRequest fields of the write `a`, as the rule that matched it (`as`) addresses it. */
export function admissionRequest(a: Attributes, as: Pick<Matched, 'group' | 'version' | 'resource' | 'kind'>): Record<string, unknown> {
  return {
    kind: { group: as.group, version: as.version, kind: as.kind },
    resource: { group: as.group, version: as.version, resource: as.resource },
    subResource: a.subresource,
    requestKind: { group: a.group, version: a.version, kind: a.kind },
    requestResource: { group: a.group, version: a.version, resource: a.resource },
    requestSubResource: a.subresource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: a.userInfo,
    dryRun: a.dryRun,
    options: a.options,
  };
}

/** The CEL `request` variable. */
export const celRequest = (a: Attributes, as: Pick<Matched, 'group' | 'version' | 'resource' | 'kind'>): unknown =>
  toCelValue(admissionRequest(a, as), DYN);

/** The CEL `authorizer` variable. */
export function celAuthorizerOf(a: Attributes): unknown {
  const user = { username: a.userInfo.username, groups: a.userInfo.groups ?? [] };
  const { group, resource, subresource, namespace, name } = a;
  return celAuthorizer(a.authorizer, user, { group, resource, subresource, namespace, name });
}
