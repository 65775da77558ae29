/**
 * What a scaffolded operator may do, as config/rbac/ manifests: one ClusterRole and binding per kind,
 * holding exactly the calls that kind's controller makes, and one namespaced Role for the
 * leader-election Lease. A file per kind lets `converge create api` add a kind's permissions without
 * editing anyone's rules. The project's tests install these files as written and run the manager as
 * the operator's ServiceAccount, so a missing permission fails a test the way it would fail in a cluster.
 */
import type { KindNames } from './names.js';
import type { ScaffoldFile } from './write-files.js';

/** Who the operator runs as: the ServiceAccount of config/manager/manager.yaml. */
export interface OperatorIdentity {
  name: string;
  namespace: string;
}

export const RBAC_DIR = 'config/rbac';

const binding = (kind: 'ClusterRoleBinding' | 'RoleBinding', role: 'ClusterRole' | 'Role', name: string, who: OperatorIdentity): string =>
  `apiVersion: rbac.authorization.k8s.io/v1
kind: ${kind}
metadata:
  name: ${name}${kind === 'RoleBinding' ? `\n  namespace: ${who.namespace}` : ''}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ${role}
  name: ${name}
subjects:
  - kind: ServiceAccount
    name: ${who.name}
    namespace: ${who.namespace}
`;

export function kindRbacFile(k: KindNames, who: OperatorIdentity): ScaffoldFile {
  const name = `${who.name}-${k.file}`;
  return {
    path: `${RBAC_DIR}/${k.file}.yaml`,
    content: `# What the ${k.kind} controller may do, cluster-wide (${k.kind}s live in any namespace):
# - ${k.plural}: list and watch for the cache, patch to add and remove the finalizer; ${k.plural}/status:
#   patch; ${k.plural}/finalizers: update, which no request uses but admission
#   (OwnerReferencesPermissionEnforcement) demands of whoever sets blockOwnerDeletion on an owner
#   reference to a ${k.kind}, as the controller reference on its ConfigMap does;
# - configmaps: list and watch for the cache, create and patch the ${k.kind}'s own, delete it in the
#   finalizer, get for the live re-read when a create meets AlreadyExists because the cache lagged.
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ${name}
rules:
  - apiGroups: [${k.group}]
    resources: [${k.plural}]
    verbs: [list, watch, patch]
  - apiGroups: [${k.group}]
    resources: [${k.plural}/status]
    verbs: [patch]
  - apiGroups: [${k.group}]
    resources: [${k.plural}/finalizers]
    verbs: [update]
  - apiGroups: [""]
    resources: [configmaps]
    verbs: [get, list, watch, create, patch, delete]
---
${binding('ClusterRoleBinding', 'ClusterRole', name, who)}`,
  };
}

export function leaderElectionRbacFile(who: OperatorIdentity): ScaffoldFile {
  const name = `${who.name}-leader-election`;
  return {
    path: `${RBAC_DIR}/leader-election.yaml`,
    content: `# The leader-election Lease, in the operator's own namespace: read it, take it, renew it.
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: ${name}
  namespace: ${who.namespace}
rules:
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [get, create, update]
---
${binding('RoleBinding', 'Role', name, who)}`,
  };
}

/** The project's test support that runs a test's manager as the operator, under config/rbac/. */
export function asOperatorFile(who: OperatorIdentity): ScaffoldFile {
  return {
    path: 'test/as-operator.ts',
    content: `// Test support: a manager that runs as the operator's ServiceAccount (config/manager/manager.yaml), with
// the RBAC of config/rbac/ installed as written. The in-process API server enforces it, so a call a
// controller makes but config/rbac/ does not grant fails the test, as it would fail in a cluster.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { defineResource, type KubeObject, type ResourceDescriptor } from 'kube-converge/meta';
import type { Manager } from 'kube-converge/manager';
import type { TestEnv } from 'kube-converge/testing';

export const OPERATOR = { namespace: '${who.namespace}', name: '${who.name}' };
const RBAC_DIR = '${RBAC_DIR}';

const rbac = (kind: string, plural: string, namespaced: boolean): ResourceDescriptor =>
  defineResource({ group: 'rbac.authorization.k8s.io', version: 'v1', kind, plural, namespaced });
const RBAC_KINDS: Record<string, ResourceDescriptor> = {
  ClusterRole: rbac('ClusterRole', 'clusterroles', false),
  ClusterRoleBinding: rbac('ClusterRoleBinding', 'clusterrolebindings', false),
  Role: rbac('Role', 'roles', true),
  RoleBinding: rbac('RoleBinding', 'rolebindings', true),
};

/** A manager on \`env\` acting as the operator, after installing config/rbac/ (as the cluster admin). */
export async function managerAsOperator(env: TestEnv): Promise<Manager> {
  const sa = await env.serviceAccount(OPERATOR); // creates the namespace and the account
  for (const file of (await readdir(RBAC_DIR)).filter((f) => f.endsWith('.yaml')).sort()) {
    for (const doc of parseAllDocuments(await readFile(join(RBAC_DIR, file), 'utf8'))) {
      const obj = doc.toJS() as KubeObject;
      const kind = RBAC_KINDS[obj.kind ?? ''];
      if (!kind) throw new Error(\`\${file}: \${obj.kind} is not an RBAC kind\`);
      await env.client.create(kind, obj);
    }
  }
  return env.newManager({ config: sa.restConfig() });
}
`,
  };
}
