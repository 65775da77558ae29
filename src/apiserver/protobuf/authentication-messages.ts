/**
 * Field numbers of `authentication.k8s.io/v1` TokenRequest (`serviceaccounts/token`, which kubectl
 * 1.32+ `create token` posts as protobuf), from `k8s.io/api/authentication/v1/generated.proto`, with
 * the JSON names and zero-value rules of the Go types (notation: `message-schema.ts`). Attestations
 * are not modelled (415 when sent).
 */
import type { MessageTable } from './message-schema.js';

export const AUTHENTICATION_MESSAGES: MessageTable = {
  TokenRequest: { 1: 'metadata ObjectMeta', 2: 'spec TokenRequestSpec', 3: 'status TokenRequestStatus' },
  TokenRequestSpec: { 1: 'audiences []string', 4: 'expirationSeconds int64*', 3: 'boundObjectRef BoundObjectReference' },
  // The proto names field 4 `uID`; its JSON name is `uid`.
  BoundObjectReference: { 1: 'kind string', 2: 'apiVersion string', 3: 'name string', 4: 'uid string' },
  TokenRequestStatus: { 1: 'token string*', 2: 'expirationTimestamp Time' },
};
