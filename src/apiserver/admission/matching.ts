/**
 * Which writes a webhook or a policy applies to, by kube-apiserver's one set of rules
 * (k8s.io/apiserver pkg/admission/plugin/webhook/predicates and pkg/admission/plugin/policy/matching):
 * the namespace selector (a Namespace's own labels on its create and update, the stored namespace's
 * otherwise; cluster-scoped writes other than Namespaces always pass), the object selector (the new or
 * the old object's labels; an absent object never matches a non-empty selector), no exclude rule, and a
 * rule matching operation, API group, version, resource (`*` every resource but no subresource, `x/*`
 * every subresource of x, and `*` before the slash any resource), resource names and scope. Under
 * `matchPolicy: Equivalent` (the API's default) a rule naming another version or group of the same
 * stored resource matches too, and the match says which.
 * Invariant: pure functions of the criteria, the attributes and the request's `MatchContext`.
 */
import { selectorFromLabelSelector, type KubeObject, type LabelSelector } from '../../meta/index.js';
import type { Attributes, Matched } from '../admission-cel/index.js';
import type { Scope } from '../registry/index.js';

/** A rule as the API reads it; `resourceNames` only policies carry. */
export interface Rule {
  operations?: readonly string[];
  apiGroups?: readonly string[];
  apiVersions?: readonly string[];
  resources?: readonly string[];
  resourceNames?: readonly string[];
  scope?: string;
}

/** What decides whether a webhook or a policy (or binding) applies: a webhook's fields, or a MatchResources. */
export interface MatchCriteria {
  /** One must match, so an empty list matches nothing; absent, every resource does (a binding that does not narrow its policy). */
  rules?: readonly Rule[] | undefined;
  excludeRules?: readonly Rule[] | undefined;
  namespaceSelector?: LabelSelector | undefined;
  objectSelector?: LabelSelector | undefined;
  /** `Exact` or `Equivalent` (absent: `Equivalent`, as the API defaults it). */
  matchPolicy?: string | undefined;
}

/** What matching reads of the server, looked up once per request. */
export interface MatchContext {
  /** The namespace the write is in (for a Namespace, itself as stored), or undefined. */
  namespaceObject: KubeObject | undefined;
  /** The resource as the request addressed it. */
  own: Matched;
  /** The other served versions and groups of the stored resource the request addresses. */
  equivalents: readonly Matched[];
}

const identity = (o: KubeObject): KubeObject => o;
const listed = (values: readonly string[] | undefined, value: string): boolean => (values ?? []).some((x) => x === '*' || x === value);

function resourceMatches(patterns: readonly string[] | undefined, resource: string, subresource: string): boolean {
  return (patterns ?? []).some((p) => {
    const slash = p.indexOf('/');
    const [res, sub] = slash === -1 ? [p, ''] : [p.slice(0, slash), p.slice(slash + 1)];
    return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
  });
}

/** kube-apiserver's scope test: a Namespace is cluster-scoped; anything else by whether it has a namespace. */
function scopeMatches(scope: string | undefined, a: Attributes, r: { group: string; resource: string }): boolean {
  if (scope === undefined || scope === '*') return true;
  const isNamespace = r.group === '' && r.resource === 'namespaces';
  if (scope === 'Namespaced') return !isNamespace && a.namespace !== '';
  if (scope === 'Cluster') return isNamespace || a.namespace === '';
  return false;
}

/** Whether `rule` matches the write `a` addressed as `r` (the request's resource or an equivalent one). */
export function ruleMatches(rule: Rule, a: Attributes, r: Pick<Matched, 'group' | 'version' | 'resource'> = a): boolean {
  return (
    scopeMatches(rule.scope, a, r) &&
    listed(rule.operations, a.operation) &&
    listed(rule.apiGroups, r.group) &&
    listed(rule.apiVersions, r.version) &&
    resourceMatches(rule.resources, r.resource, a.subresource) &&
    ((rule.resourceNames ?? []).length === 0 || rule.resourceNames!.includes(a.name))
  );
}

/** The resource one of `rules` matches, trying the request's own first, then (Equivalent) the others in rule order. */
function matchingResource(rules: readonly Rule[], matchPolicy: string | undefined, a: Attributes, m: MatchContext): Matched | undefined {
  if (rules.some((r) => ruleMatches(r, a, m.own))) return m.own;
  if (matchPolicy === 'Exact') return undefined;
  for (const rule of rules) for (const e of m.equivalents) if (ruleMatches(rule, a, e)) return e;
  return undefined;
}

const labelsOf = (o: KubeObject | undefined): Record<string, string> => (o?.metadata.labels ?? {}) as Record<string, string>;

function namespaceSelected(selector: LabelSelector | undefined, a: Attributes, m: MatchContext): boolean {
  const isNamespace = a.group === '' && a.resource === 'namespaces';
  if (selector === undefined || (a.namespace === '' && !isNamespace)) return true;
  const s = selectorFromLabelSelector(selector);
  // A Namespace being written is matched by the labels it is given, not the ones it had.
  const own = isNamespace && a.subresource === '' && a.operation !== 'DELETE';
  return s.matches(labelsOf(own ? a.object : m.namespaceObject));
}

function objectSelected(selector: LabelSelector | undefined, a: Attributes): boolean {
  if (selector === undefined) return true;
  const s = selectorFromLabelSelector(selector);
  return [a.object, a.oldObject].some((o) => o !== undefined && s.matches(labelsOf(o)));
}

/** The resource `c` applies to the write `a` as, or undefined when it does not apply. */
export function matches(c: MatchCriteria, a: Attributes, m: MatchContext): Matched | undefined {
  if (!namespaceSelected(c.namespaceSelector, a, m) || !objectSelected(c.objectSelector, a)) return undefined;
  const excludes = c.excludeRules ?? [];
  if (excludes.length > 0 && matchingResource(excludes, c.matchPolicy, a, m)) return undefined;
  if (c.rules === undefined) return m.own;
  return matchingResource(c.rules, c.matchPolicy, a, m);
}

/**
 * The match context of a write through `scope`: the namespace it is in, and the served versions of
 * its resource (every group and version whose objects are stored with it). Each is looked up when
 * first read, so a write nothing matches against pays for neither. Versions converted by a CRD's
 * conversion webhook are left out: converting to them would need the webhook, which admission does
 * not call, so a rule naming only such a version matches exactly or not at all.
 */
export function matchContextOf(scope: Scope, a: Attributes): MatchContext {
  const { ctx, strategy } = scope;
  let namespace: { object: KubeObject | undefined } | undefined;
  let equivalents: Matched[] | undefined;
  return {
    own: { group: a.group, version: a.version, resource: a.resource, kind: a.kind, toMatched: identity, fromMatched: identity },
    get namespaceObject() {
      if (namespace === undefined) {
        const name = a.group === '' && a.resource === 'namespaces' ? a.name : a.namespace;
        namespace = { object: name === '' ? undefined : ctx.store.get('/namespaces', name) };
      }
      return namespace.object;
    },
    get equivalents() {
      equivalents ??= ctx.registry
        .strategies()
        .filter((s) => s.storageId === strategy.storageId && s.conversionWebhook === undefined)
        .flatMap((s) =>
          s.versions
            .filter((v) => v.served && !(s === strategy && v.name === scope.version))
            .map((v) => ({
              group: s.group,
              version: v.name,
              resource: s.plural,
              // A subresource's kind (Scale) is the same in every version of its parent.
              kind: a.subresource === '' || a.subresource === 'status' ? s.kind : a.kind,
              toMatched: (o: KubeObject) => s.toExternal(strategy.toInternal(o), v.name),
              fromMatched: (o: KubeObject) => strategy.toExternal(s.toInternal(o), scope.version),
            })),
        );
      return equivalents;
    },
  };
}
