/**
 * From a recording to least-privilege RBAC: each recorded request becomes one permission (verb on a
 * resource or subresource of an API group, in a namespace or cluster-wide, or verb on a
 * non-resource URL), leaving out what the bootstrap policy already grants every authenticated user
 * (discovery, health, version, self reviews). A resource the recording reaches across all
 * namespaces or at cluster scope has all of its verbs in the ClusterRole (the namespaces a test
 * happened to use say nothing about production); the rest stay in a Role of the namespace they
 * were used in. Invariant: the same permissions always give the same manifests — rules sorted by
 * API group and resource, resources with equal verbs merged into one rule, verbs sorted.
 */
import { type RecordedRequest } from '../apiserver/index.js';
import { grantedToAuthenticatedUsers } from '../apiserver/internal.js';

/** One permission; `namespace` '' means the ClusterRole. */
export type Permission =
  | { kind: 'resource'; namespace: string; apiGroup: string; resource: string; verb: string }
  | { kind: 'nonResource'; url: string; verb: string };

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  rules?: Rule[];
  roleRef?: { apiGroup: string; kind: string; name: string };
  subjects?: { kind: string; name: string; namespace: string }[];
}

const RBAC = 'rbac.authorization.k8s.io';
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const permissionKey = (p: Permission): string =>
  p.kind === 'nonResource' ? `url ${p.url} ${p.verb}` : `res ${p.namespace} ${p.apiGroup} ${p.resource} ${p.verb}`;

/** How `--check` names a permission. */
export function describePermission(p: Permission): string {
  if (p.kind === 'nonResource') return `${p.verb} ${p.url} (non-resource URL)`;
  const where = p.namespace ? `in namespace ${p.namespace}` : 'cluster-wide';
  return `${p.verb} ${p.resource} (API group "${p.apiGroup}") ${where}`;
}

/** The permissions a recording needs, deduplicated and sorted. */
export function permissionsFromRecording(requests: readonly RecordedRequest[]): Permission[] {
  const needed = requests.filter((r) => !grantedToAuthenticatedUsers(r));
  const baseKey = (r: RecordedRequest): string => `${r.apiGroup ?? ''} ${r.resource ?? ''}`;
  // Namespaces are cluster-scoped, although RBAC sees a namespace's own name as its namespace.
  const clusterWide = new Set(
    needed.filter((r) => r.resource !== undefined && (!r.namespace || (r.resource === 'namespaces' && !r.apiGroup))).map(baseKey),
  );
  const out = new Map<string, Permission>();
  for (const r of needed) {
    const p: Permission =
      r.nonResourceURL !== undefined
        ? { kind: 'nonResource', url: r.nonResourceURL, verb: r.verb }
        : {
            kind: 'resource',
            namespace: clusterWide.has(baseKey(r)) ? '' : (r.namespace ?? ''),
            apiGroup: r.apiGroup ?? '',
            resource: r.subresource ? `${r.resource}/${r.subresource}` : r.resource!,
            verb: r.verb,
          };
    out.set(permissionKey(p), p);
  }
  return [...out.values()].sort((a, b) => cmp(permissionKey(a), permissionKey(b)));
}

/** Rules for one role: one per API group and verb set, resources merged, all sorted. */
function rulesOf(permissions: readonly Permission[]): Rule[] {
  const verbsOf = new Map<string, Set<string>>();
  for (const p of permissions) {
    const key = p.kind === 'nonResource' ? `\u0001url\u0000${p.url}` : `${p.apiGroup}\u0000${p.resource}`;
    let verbs = verbsOf.get(key);
    if (!verbs) verbsOf.set(key, (verbs = new Set()));
    verbs.add(p.verb);
  }
  const merged = new Map<string, Rule>();
  for (const [key, verbSet] of [...verbsOf].sort(([a], [b]) => cmp(a, b))) {
    const [group, target] = key.split('\u0000') as [string, string];
    const verbs = [...verbSet].sort(cmp);
    const ruleKey = `${group}\u0000${verbs.join(',')}`;
    const rule = merged.get(ruleKey);
    if (group === '\u0001url') {
      if (rule) rule.nonResourceURLs!.push(target);
      else merged.set(ruleKey, { nonResourceURLs: [target], verbs });
    } else if (rule) rule.resources!.push(target);
    else merged.set(ruleKey, { apiGroups: [group], resources: [target], verbs });
  }
  return [...merged.values()];
}

/** Which ServiceAccount a user name is, for the bindings (none for other users). */
function serviceAccountOf(user: string): { namespace: string; name: string } | undefined {
  const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user);
  return m ? { namespace: m[1]!, name: m[2]! } : undefined;
}

/** The ClusterRole (and a Role per namespace), each with its binding to the recorded ServiceAccount. */
export function manifestsFor(user: string, name: string, permissions: readonly Permission[]): Manifest[] {
  const sa = serviceAccountOf(user);
  const byNamespace = new Map<string, Permission[]>();
  for (const p of permissions) {
    const ns = p.kind === 'resource' ? p.namespace : '';
    byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), p]);
  }
  const out: Manifest[] = [];
  for (const ns of [...byNamespace.keys()].sort(cmp)) {
    const kind = ns ? 'Role' : 'ClusterRole';
    const metadata = ns ? { name, namespace: ns } : { name };
    out.push({ apiVersion: `${RBAC}/v1`, kind, metadata, rules: rulesOf(byNamespace.get(ns)!) });
    if (sa)
      out.push({
        apiVersion: `${RBAC}/v1`,
        kind: `${kind}Binding`,
        metadata,
        roleRef: { apiGroup: RBAC, kind, name },
        subjects: [{ kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace }],
      });
  }
  return out;
}

/** The permissions the Roles and ClusterRoles among `docs` grant, read literally (a `*` is itself). */
export function permissionsOfManifests(docs: readonly Manifest[]): Permission[] {
  const out = new Map<string, Permission>();
  for (const d of docs) {
    if (d.kind !== 'Role' && d.kind !== 'ClusterRole') continue;
    const namespace = d.kind === 'Role' ? (d.metadata.namespace ?? 'default') : '';
    for (const rule of d.rules ?? []) {
      for (const verb of rule.verbs ?? []) {
        for (const url of rule.nonResourceURLs ?? [])
          out.set(permissionKey({ kind: 'nonResource', url, verb }), { kind: 'nonResource', url, verb });
        for (const apiGroup of rule.apiGroups ?? [])
          for (const resource of rule.resources ?? []) {
            const p: Permission = { kind: 'resource', namespace, apiGroup, resource, verb };
            out.set(permissionKey(p), p);
          }
      }
    }
  }
  return [...out.values()].sort((a, b) => cmp(permissionKey(a), permissionKey(b)));
}
