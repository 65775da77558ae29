/**
 * Field numbers of the `authorization.k8s.io/v1` and `authentication.k8s.io/v1` review messages
 * kubectl posts as protobuf (`auth can-i`, `auth can-i --list`, `auth whoami`), from their
 * `k8s.io/api` `generated.proto` files, with the JSON names and zero-value rules of the Go types
 * (notation: `message-schema.ts`). Field and label selector attributes are not modelled (415 when sent).
 */
import type { MessageTable } from './message-schema.js';

export const AUTHORIZATION_MESSAGES: MessageTable = {
  SelfSubjectAccessReview: { 1: 'metadata ObjectMeta', 2: 'spec SelfSubjectAccessReviewSpec', 3: 'status SubjectAccessReviewStatus' },
  SelfSubjectAccessReviewSpec: { 1: 'resourceAttributes ResourceAttributes', 2: 'nonResourceAttributes NonResourceAttributes' },
  SubjectAccessReview: { 1: 'metadata ObjectMeta', 2: 'spec SubjectAccessReviewSpec', 3: 'status SubjectAccessReviewStatus' },
  LocalSubjectAccessReview: { 1: 'metadata ObjectMeta', 2: 'spec SubjectAccessReviewSpec', 3: 'status SubjectAccessReviewStatus' },
  SubjectAccessReviewSpec: {
    1: 'resourceAttributes ResourceAttributes',
    2: 'nonResourceAttributes NonResourceAttributes',
    3: 'user string',
    4: 'groups []string',
    6: 'uid string',
  },
  ResourceAttributes: {
    1: 'namespace string',
    2: 'verb string',
    3: 'group string',
    4: 'version string',
    5: 'resource string',
    6: 'subresource string',
    7: 'name string',
  },
  NonResourceAttributes: { 1: 'path string', 2: 'verb string' },
  SubjectAccessReviewStatus: { 1: 'allowed bool*', 4: 'denied bool', 2: 'reason string', 3: 'evaluationError string' },
  SelfSubjectRulesReview: { 1: 'metadata ObjectMeta', 2: 'spec SelfSubjectRulesReviewSpec', 3: 'status SubjectRulesReviewStatus' },
  SelfSubjectRulesReviewSpec: { 1: 'namespace string' },
  SubjectRulesReviewStatus: { 3: 'incomplete bool*', 4: 'evaluationError string' },
  SelfSubjectReview: { 1: 'metadata ObjectMeta', 2: 'status SelfSubjectReviewStatus' },
  SelfSubjectReviewStatus: { 1: 'userInfo UserInfo' },
  UserInfo: { 1: 'username string', 2: 'uid string', 3: 'groups []string' },
};
