/**
 * Which writes a policy or binding applies to (a `MatchResources`): the resource rules (operations,
 * API groups and versions, resources with `*` and `sub/*` forms, resource names, scope), minus the
 * exclude rules, within the namespace selector (by the namespace's labels; cluster-scoped objects
 * other than Namespaces always pass) and the object selector (the new or the old object's labels).
 */
import { selectorFromLabelSelector, type KubeObject, type LabelSelector } from '../../meta/index.js';
import type { AdmissionAttributes } from '../admission-cel/index.js';

type Obj = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const listed = (values: string[], value: string): boolean => values.includes('*') || values.includes(value);

function resourceMatches(patterns: string[], resource: string, subresource: string): boolean {
  return patterns.some((p) => {
    const slash = p.indexOf('/');
    const [res, sub] = slash === -1 ? [p, ''] : [p.slice(0, slash), p.slice(slash + 1)];
    return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
  });
}

function ruleMatches(rule: Obj, a: AdmissionAttributes): boolean {
  const names = strings(rule.resourceNames);
  const scope = rule.scope ?? '*';
  return (
    listed(strings(rule.operations), a.operation) &&
    listed(strings(rule.apiGroups), a.group) &&
    listed(strings(rule.apiVersions), a.version) &&
    resourceMatches(strings(rule.resources), a.resource, a.subresource) &&
    (names.length === 0 || names.includes(a.name)) &&
    (scope === '*' || (scope === 'Namespaced') === (a.namespace !== ''))
  );
}

const labelsOf = (o: KubeObject | undefined): Record<string, string> | undefined =>
  o?.metadata.labels as Record<string, string> | undefined;

/** The labels the namespace selector is matched against; undefined when it does not apply. */
function namespaceLabels(a: AdmissionAttributes, namespaceObject: KubeObject | undefined): Record<string, string> | undefined {
  if (a.group === '' && a.resource === 'namespaces') return labelsOf(a.object) ?? {};
  if (a.namespace === '') return undefined;
  return labelsOf(namespaceObject) ?? {};
}

/** Whether `m` (a MatchResources) selects the write `a`; without resource rules it selects none, unless `requireRules` is false. */
export function matchesResources(m: Obj, a: AdmissionAttributes, namespaceObject: KubeObject | undefined, requireRules: boolean): boolean {
  const rules = Array.isArray(m.resourceRules) ? (m.resourceRules as Obj[]) : [];
  const excluded = Array.isArray(m.excludeResourceRules) ? (m.excludeResourceRules as Obj[]) : [];
  const ruled = rules.length === 0 ? !requireRules : rules.some((r) => ruleMatches(r, a));
  if (!ruled || excluded.some((r) => ruleMatches(r, a))) return false;
  const nsLabels = namespaceLabels(a, namespaceObject);
  if (nsLabels !== undefined && !selectorFromLabelSelector((m.namespaceSelector ?? {}) as LabelSelector).matches(nsLabels)) return false;
  const objects = selectorFromLabelSelector((m.objectSelector ?? {}) as LabelSelector);
  return objects.matches(labelsOf(a.object) ?? {}) || (a.oldObject !== undefined && objects.matches(labelsOf(a.oldObject) ?? {}));
}

/** A binding without matchResources applies wherever its policy does; its resourceRules, when unset, do not narrow it. */
export function bindingMatches(binding: Obj, a: AdmissionAttributes, namespaceObject: KubeObject | undefined): boolean {
  const m = (binding.spec as Obj | undefined)?.matchResources;
  return m === undefined || m === null || matchesResources(m as Obj, a, namespaceObject, false);
}
