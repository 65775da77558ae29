/**
 * The bootstrap ClusterRoles and ClusterRoleBindings kube-apiserver creates at start that matter to
 * a client: `cluster-admin` for `system:masters`, and for every authenticated user discovery
 * (`system:discovery`), the self reviews behind `kubectl auth can-i` and `whoami`
 * (`system:basic-user`) and health and version (`system:public-info-viewer`, which anonymous users
 * get too). The controller, node and aggregated user-facing roles (`admin`, `edit`, `view`) are not
 * made: nothing here runs those components. Invariant: the objects carry the names, rules, labels
 * and annotations of a cluster's defaults, so `kubectl get clusterrole system:discovery -o yaml`
 * reads as it would there.
 */
import type { KubeObject } from '../../meta/index.js';
import { ruleAllows, type PolicyRule } from './policy-rule.js';
import type { RequestAttributes } from '../ground/index.js';
import type { RecordedRequest } from './request-recorder.js';

const API_VERSION = 'rbac.authorization.k8s.io/v1';
const LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const ANNOTATIONS = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };

const PUBLIC_INFO = ['/healthz', '/livez', '/readyz', '/version', '/version/'];

const ROLES: Record<string, PolicyRule[]> = {
  'cluster-admin': [
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    { verbs: ['*'], nonResourceURLs: ['*'] },
  ],
  'system:discovery': [
    {
      verbs: ['get'],
      nonResourceURLs: [
        '/api',
        '/api/*',
        '/apis',
        '/apis/*',
        '/healthz',
        '/livez',
        '/openapi',
        '/openapi/*',
        '/readyz',
        '/version',
        '/version/',
      ],
    },
  ],
  'system:basic-user': [
    { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
  ],
  'system:public-info-viewer': [{ verbs: ['get'], nonResourceURLs: PUBLIC_INFO }],
};

const BINDINGS: Record<string, string[]> = {
  'cluster-admin': ['system:masters'],
  'system:discovery': ['system:authenticated'],
  'system:basic-user': ['system:authenticated'],
  'system:public-info-viewer': ['system:authenticated', 'system:unauthenticated'],
};

const metadata = (name: string): KubeObject['metadata'] => ({ name, labels: { ...LABELS }, annotations: { ...ANNOTATIONS } });

export function bootstrapClusterRoles(): KubeObject[] {
  return Object.entries(ROLES).map(([name, rules]) => ({ apiVersion: API_VERSION, kind: 'ClusterRole', metadata: metadata(name), rules }));
}

export function bootstrapClusterRoleBindings(): KubeObject[] {
  return Object.entries(BINDINGS).map(([name, groups]) => ({
    apiVersion: API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: metadata(name),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects: groups.map((g) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: g })),
  }));
}

/**
 * Whether the bootstrap policy already lets every authenticated user make this request (discovery,
 * health, version, the self reviews), so a generated Role need not grant it.
 */
export function grantedToAuthenticatedUsers(r: RecordedRequest): boolean {
  const a: RequestAttributes =
    r.nonResourceURL !== undefined
      ? { kind: 'nonResource', verb: r.verb, path: r.nonResourceURL }
      : {
          kind: 'resource',
          verb: r.verb,
          apiGroup: r.apiGroup ?? '',
          apiVersion: '',
          resource: r.resource ?? '',
          subresource: r.subresource ?? '',
          namespace: r.namespace ?? '',
          name: r.name ?? '',
        };
  return Object.entries(BINDINGS).some(
    ([name, groups]) =>
      groups.includes('system:authenticated') && name !== 'cluster-admin' && ROLES[name]!.some((rule) => ruleAllows(rule, a)),
  );
}
