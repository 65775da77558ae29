/**
 * The RBAC authorizer, reading Roles, ClusterRoles and their bindings straight from storage (so a
 * binding is in force from the write that stores it): a request is allowed when a
 * ClusterRoleBinding, or a RoleBinding of the request's namespace, binds a role with a rule that
 * allows it to a subject that is the user, one of its groups, or its ServiceAccount. Members of
 * `system:masters` are allowed before any rule is read, as kube-apiserver's privileged-group
 * authorizer does, which keeps the admin's hot path to one group check. Invariant: the answers (and
 * their reasons, and the errors of bindings naming missing roles) are kube-apiserver's.
 */
import type { KubeObject } from '../../meta/index.js';
import { isMaster, serviceAccountUser, type UserInfo } from '../ground/index.js';
import type { Store } from '../storage/index.js';
import { ruleAllows, type PolicyRule } from './policy-rule.js';
import type { RequestAttributes } from '../ground/index.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
export const CLUSTER_ROLES = `${RBAC_GROUP}/clusterroles`;
export const ROLES = `${RBAC_GROUP}/roles`;
export const CLUSTER_ROLE_BINDINGS = `${RBAC_GROUP}/clusterrolebindings`;
export const ROLE_BINDINGS = `${RBAC_GROUP}/rolebindings`;

export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

interface Binding extends KubeObject {
  subjects?: Subject[];
  roleRef: { apiGroup?: string; kind: string; name: string };
}

export interface Decision {
  allowed: boolean;
  /** Why it was allowed (`RBAC: allowed by …`), or the errors met while looking (`RBAC: …`); may be empty. */
  reason: string;
}

/** The rules that apply to a user in a namespace (SelfSubjectRulesReview). */
export interface UserRules {
  rules: PolicyRule[];
  errors: string[];
}

function subjectMatches(s: Subject, user: UserInfo, bindingNamespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return s.name === user.username;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount':
      return serviceAccountUser(s.namespace || bindingNamespace, s.name).username === user.username;
    default:
      return false;
  }
}

/** How kube-apiserver's allow reasons name a subject. */
function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} "${s.name}/${s.namespace || bindingNamespace}"`;
  return `${s.kind} "${s.name}"`;
}

/** The Go aggregate of errors: the one message, or `[a, b]`. */
const aggregate = (errors: string[]): string => (errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);

export class RbacAuthorizer {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  authorize(user: UserInfo, a: RequestAttributes): Decision {
    if (isMaster(user)) return { allowed: true, reason: '' };
    const errors: string[] = [];
    let reason: string | undefined;
    this.#visit(user, a.kind === 'resource' ? a.namespace : '', errors, (rules, source) => {
      if (!rules.some((r) => ruleAllows(r, a))) return false;
      reason = `RBAC: allowed by ${source}`;
      return true;
    });
    if (reason !== undefined) return { allowed: true, reason };
    return { allowed: false, reason: errors.length > 0 ? `RBAC: ${aggregate(errors)}` : '' };
  }

  /** Every rule bound to `user` in `namespace` (cluster-wide bindings included). */
  rulesFor(user: UserInfo, namespace: string): UserRules {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.#visit(user, namespace, errors, (found) => {
      rules.push(...found);
      return false;
    });
    return { rules, errors };
  }

  /** Calls `visit` with each bound role's rules until it returns true; missing roles go to `errors`. */
  #visit(user: UserInfo, namespace: string, errors: string[], visit: (rules: PolicyRule[], source: string) => boolean): void {
    for (const b of this.#store.current(CLUSTER_ROLE_BINDINGS).values() as Iterable<Binding>) {
      const subject = (b.subjects ?? []).find((s) => subjectMatches(s, user, ''));
      if (!subject) continue;
      const rules = this.#roleRules(b, '', errors);
      const source = `ClusterRoleBinding "${b.metadata.name}" of ${b.roleRef.kind} "${b.roleRef.name}" to ${describeSubject(subject, '')}`;
      if (rules && visit(rules, source)) return;
    }
    if (!namespace) return;
    const prefix = `${namespace}/`;
    for (const [key, obj] of this.#store.current(ROLE_BINDINGS)) {
      if (!key.startsWith(prefix)) continue;
      const b = obj as Binding;
      const subject = (b.subjects ?? []).find((s) => subjectMatches(s, user, namespace));
      if (!subject) continue;
      const rules = this.#roleRules(b, namespace, errors);
      const source = `RoleBinding "${b.metadata.name}/${namespace}" of ${b.roleRef.kind} "${b.roleRef.name}" to ${describeSubject(subject, namespace)}`;
      if (rules && visit(rules, source)) return;
    }
  }

  #roleRules(b: Binding, namespace: string, errors: string[]): PolicyRule[] | undefined {
    const { kind, name } = b.roleRef;
    const role =
      kind === 'ClusterRole'
        ? this.#store.get(CLUSTER_ROLES, name)
        : kind === 'Role' && namespace
          ? this.#store.get(ROLES, `${namespace}/${name}`)
          : undefined;
    if (!role) {
      errors.push(`${kind.toLowerCase()}.${RBAC_GROUP} "${name}" not found`);
      return undefined;
    }
    return ((role as { rules?: PolicyRule[] }).rules ?? []) as PolicyRule[];
  }
}
