/**
 * What a scaffolded operator may do, as config/rbac/ manifests, and the test support that holds it to
 * that. role.yaml is `converge rbac` output: the ClusterRole and binding the tests' recordings need.
 * The project is not installed when `converge init` or `converge create api` write it, so the
 * permissions a kind's starter controller uses are listed here and rendered by the same code
 * `converge rbac` uses; `npm test` then runs `converge rbac --check` against what its tests recorded.
 * leader-election.yaml is written once and not generated: the tests never elect a leader.
 * Invariant: the starter permissions are exactly the calls kind-files.ts's controller and test make.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { manifestsFor, permissionKey, permissionsOfManifests, type Manifest, type Permission } from '../rbac-policy.js';
import { RBAC_HEADER } from '../rbac.js';
import type { KindNames } from './names.js';
import type { ScaffoldFile } from './write-files.js';

/** Who the operator runs as: the ServiceAccount of config/manager/manager.yaml. */
export interface OperatorIdentity {
  name: string;
  namespace: string;
}

export const RBAC_DIR = 'config/rbac';
export const ROLE_FILE = `${RBAC_DIR}/role.yaml`;
/** Where each kind's test writes its recording (compiled output: made again by every npm test). */
export const RECORDINGS_DIR = 'dist/rbac';

export const recordingOf = (k: KindNames): string => `${RECORDINGS_DIR}/${k.file}.json`;

/**
 * `converge rbac` over the recordings, as the project's scripts run it: every permission in the
 * ClusterRole, since the operator's kinds live in any namespace, not only in the one a test used.
 */
export const rbacCommand = (recordings: readonly string[]): string =>
  ['converge rbac', ...recordings.map((r) => `--recording ${r}`), '--cluster-wide', `--out ${ROLE_FILE}`].join(' ');

/**
 * The calls of a kind's starter controller, cluster-wide (its objects live in any namespace): list
 * and watch its kind and ConfigMaps for the cache; patch its kind (finalizer) and its status; update
 * its kind's finalizers, which the API server asks for when the ConfigMap's controller reference
 * blocks the owner's deletion; get, create, patch and delete its ConfigMap.
 */
function starterPermissions(k: KindNames): Permission[] {
  const on = (apiGroup: string, resource: string, verbs: string[]): Permission[] =>
    verbs.map((verb) => ({ kind: 'resource', namespace: '', apiGroup, resource, verb }));
  return [
    ...on(k.group, k.plural, ['list', 'watch', 'patch']),
    ...on(k.group, `${k.plural}/finalizers`, ['update']),
    ...on(k.group, `${k.plural}/status`, ['patch']),
    ...on('', 'configmaps', ['get', 'list', 'watch', 'create', 'patch', 'delete']),
  ];
}

/** role.yaml as `converge rbac` writes it, for `permissions`, regenerated from `recordings`. */
function roleFile(who: OperatorIdentity, recordings: readonly string[], permissions: readonly Permission[]): ScaffoldFile {
  const unique = [...new Map(permissions.map((p) => [permissionKey(p), p])).values()];
  const manifests = manifestsFor(`system:serviceaccount:${who.namespace}:${who.name}`, who.name, unique);
  const header = `${RBAC_HEADER}\n# Regenerate: ${rbacCommand(recordings)}\n`;
  return { path: ROLE_FILE, content: header + manifests.map((m) => `---\n${stringify(m)}`).join('') };
}

/** role.yaml of a new project, whose one kind is `first`. */
export const firstRoleFile = (who: OperatorIdentity, first: KindNames): ScaffoldFile =>
  roleFile(who, [recordingOf(first)], starterPermissions(first));

/** role.yaml with `k`'s starter permissions added to what `dir`'s role.yaml grants now; `recordings` include `k`'s. */
export async function roleFileWith(dir: string, who: OperatorIdentity, recordings: readonly string[], k: KindNames): Promise<ScaffoldFile> {
  const docs = parseAllDocuments(await readFile(join(dir, ROLE_FILE), 'utf8'))
    .map((d) => d.toJS() as Manifest | null)
    .filter((d): d is Manifest => d !== null);
  return roleFile(who, recordings, [...permissionsOfManifests(docs), ...starterPermissions(k)]);
}

export function leaderElectionRbacFile(who: OperatorIdentity): ScaffoldFile {
  const name = `${who.name}-leader-election`;
  const subject = `  - kind: ServiceAccount\n    name: ${who.name}\n    namespace: ${who.namespace}\n`;
  return {
    path: `${RBAC_DIR}/leader-election.yaml`,
    content: `# The leader-election Lease, in the operator's own namespace: read it, take it, renew it, and watch
# it (a standby takes it the moment the leader releases it). Written by converge init, not generated:
# the tests never elect a leader, so no recording holds these calls.
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: ${name}
  namespace: ${who.namespace}
rules:
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [get, create, update, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: ${name}
  namespace: ${who.namespace}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: ${name}
subjects:
${subject}`,
  };
}

/** The project's test support that runs a test's manager as the operator, under config/rbac/. */
export function asOperatorFile(who: OperatorIdentity): ScaffoldFile {
  return {
    path: 'test/as-operator.ts',
    content: `// Test support: a manager that runs as the operator's ServiceAccount (config/manager/manager.yaml), with
// the RBAC of config/rbac/ installed as written. The in-process API server enforces it, so a call a
// controller makes but config/rbac/ does not grant fails the test, as it would fail in a cluster; and
// it records every call, which \`converge rbac --check\` (in npm test) compares with ${ROLE_FILE}.
// Its \`eventually\` names every call the operator was refused (403) when it gives up, so such a
// failure says which permission is missing, not only what did not happen.
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { defineResource, type KubeObject, type LogFields, type Logger, type ResourceDescriptor } from 'kube-converge/meta';
import type { Manager } from 'kube-converge/manager';
import { eventually as eventuallyAny, type EventuallyOptions, type TestEnv } from 'kube-converge/testing';

export const OPERATOR = { namespace: '${who.namespace}', name: '${who.name}' };
const RBAC_DIR = '${RBAC_DIR}';
const RECORDINGS_DIR = '${RECORDINGS_DIR}';

const rbac = (kind: string, plural: string, namespaced: boolean): ResourceDescriptor =>
  defineResource({ group: 'rbac.authorization.k8s.io', version: 'v1', kind, plural, namespaced });
const RBAC_KINDS: Record<string, ResourceDescriptor> = {
  ClusterRole: rbac('ClusterRole', 'clusterroles', false),
  ClusterRoleBinding: rbac('ClusterRoleBinding', 'clusterrolebindings', false),
  Role: rbac('Role', 'roles', true),
  RoleBinding: rbac('RoleBinding', 'rolebindings', true),
};

/** The messages of every 403 the operator's manager logged (a reconcile or a cache list refused). */
const refusals = new Set<string>();

/** Keeps the 403s among the lines logged with an \`err\`; discards the rest, as tests need no logs. */
function refusalLogger(): Logger {
  const note = (fields: LogFields): void => {
    const err = fields['err'] ?? fields['error'];
    const status = (err as { status?: { code?: unknown } } | undefined)?.status;
    if (status?.code === 403) refusals.add((err as Error).message);
  };
  const logger: Logger = { debug: note, info: note, warn: note, error: note, child: () => logger };
  return logger;
}

/**
 * \`eventually\` from kube-converge/testing, whose failure also lists the calls the operator was
 * refused: a controller that lacks a permission retries and never gets there, and this says why.
 */
export async function eventually<T>(fn: () => T | Promise<T>, options: EventuallyOptions = {}): Promise<Exclude<T, false>> {
  try {
    return await eventuallyAny(fn, options);
  } catch (err) {
    if (refusals.size === 0) throw err;
    throw new Error(
      [
        (err as Error).message,
        'The operator was refused by the API server (403 Forbidden); ${ROLE_FILE} lacks:',
        ...[...refusals].map((m) => \`  \${m}\`),
        'Run npm run rbac to add what this run used, then npm test again.',
      ].join('\\n'),
      { cause: err },
    );
  }
}

export interface Operator {
  /** A manager on the test environment, acting as the operator's ServiceAccount. */
  manager: Manager;
  /** Writes what the operator asked for so far to ${RECORDINGS_DIR}/<name>.json, for converge rbac. */
  saveRecording(name: string): Promise<void>;
}

/** Installs config/rbac/ (as the cluster admin) and gives a manager that acts as the operator. */
export async function asOperator(env: TestEnv): Promise<Operator> {
  const sa = await env.serviceAccount(OPERATOR); // creates the namespace and the account
  for (const file of (await readdir(RBAC_DIR)).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml').sort()) {
    for (const doc of parseAllDocuments(await readFile(join(RBAC_DIR, file), 'utf8'))) {
      const obj = doc.toJS() as KubeObject | null;
      if (obj === null) continue; // an empty document, such as one before a leading ---
      const kind = RBAC_KINDS[obj.kind ?? ''];
      if (!kind) continue; // the ServiceAccount and others: asOperator made the account already
      await env.client.create(kind, obj);
    }
  }
  return {
    manager: await env.newManager({ config: sa.restConfig(), logger: refusalLogger() }),
    saveRecording: async (name) => {
      await mkdir(RECORDINGS_DIR, { recursive: true });
      await sa.writeRecording(join(RECORDINGS_DIR, \`\${name}.json\`));
    },
  };
}
`,
  };
}
