/**
 * Field numbers of the `rbac.authorization.k8s.io/v1` messages (Role, ClusterRole and their
 * bindings), from `k8s.io/api/rbac/v1/generated.proto`, with the JSON names and zero-value rules of
 * the Go types (notation: `message-schema.ts`).
 */
import type { MessageTable } from './message-schema.js';

export const RBAC_MESSAGES: MessageTable = {
  Role: { 1: 'metadata ObjectMeta', 2: 'rules []PolicyRule' },
  ClusterRole: { 1: 'metadata ObjectMeta', 2: 'rules []PolicyRule', 3: 'aggregationRule AggregationRule' },
  PolicyRule: {
    1: 'verbs []string',
    2: 'apiGroups []string',
    3: 'resources []string',
    4: 'resourceNames []string',
    5: 'nonResourceURLs []string',
  },
  AggregationRule: { 1: 'clusterRoleSelectors []LabelSelector' },
  RoleBinding: { 1: 'metadata ObjectMeta', 2: 'subjects []Subject', 3: 'roleRef RoleRef' },
  ClusterRoleBinding: { 1: 'metadata ObjectMeta', 2: 'subjects []Subject', 3: 'roleRef RoleRef' },
  Subject: { 1: 'kind string*', 2: 'apiGroup string', 3: 'name string*', 4: 'namespace string' },
  RoleRef: { 1: 'apiGroup string*', 2: 'kind string*', 3: 'name string*' },
};
