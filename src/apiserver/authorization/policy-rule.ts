/**
 * Whether one RBAC `PolicyRule` allows a request, as rbac/v1's rule matching: verbs and API groups
 * match exactly or by `*`; a resource matches exactly, by `*` (subresources included), or by a
 * wildcard with the subresource (`*` then `/scale`) for that subresource of any resource; `resourceNames` narrows to those
 * names when set; a non-resource path matches a URL exactly or by a trailing-`*` prefix. Invariant:
 * a rule is either about resources or about non-resource URLs for a request — a rule's
 * `nonResourceURLs` never allow a resource request, nor its `resources` a non-resource one.
 */
import type { RequestAttributes } from '../ground/index.js';

export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const has = (list: readonly string[] | undefined, v: string): boolean => (list ?? []).some((x) => x === '*' || x === v);

function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return (rule.resources ?? []).some((r) => r === '*' || r === combined || (subresource !== '' && r === `*/${subresource}`));
}

function urlMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))));
}

export function ruleAllows(rule: PolicyRule, a: RequestAttributes): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if (a.kind === 'nonResource') return urlMatches(rule, a.path);
  const names = rule.resourceNames ?? [];
  return (
    has(rule.apiGroups, a.apiGroup) && resourceMatches(rule, a.resource, a.subresource) && (names.length === 0 || names.includes(a.name))
  );
}
