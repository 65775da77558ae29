/**
 * The parts of a policy and its bindings both policy plugins read the same way: names and specs,
 * what a policy's matchConstraints and a binding's matchResources match, the admission
 * configuration kinds exempt from policies,
 * the stable order (by name) policies and bindings run in, and the params a binding refers to
 * (by name or selector, in the binding's or the request's namespace), with kube-apiserver's
 * configuration errors when they cannot be found.
 */
import { selectorFromLabelSelector, type KubeObject, type LabelSelector } from '../../../meta/index.js';
import type { ServerContext } from '../../registry/index.js';
import type { Attributes } from '../../admission-cel/index.js';
import type { MatchContext, MatchCriteria, Rule } from '../matching.js';

type Obj = Record<string, unknown>;

/** The admission configuration kinds no policy applies to, so a bad policy cannot lock itself in. */
const EXEMPT = new Set([
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
]);

/** True for a write to admission configuration itself, which policies never admit. */
export const isAdmissionConfiguration = (a: { group: string; resource: string }): boolean =>
  a.group === 'admissionregistration.k8s.io' && EXEMPT.has(a.resource);

export const nameOf = (o: Obj): string => String((o.metadata as Obj | undefined)?.name ?? '');
export const specOf = (o: Obj): Obj => (o.spec ?? {}) as Obj;
export const byName = (a: KubeObject, b: KubeObject): number => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0);

const rules = (v: unknown): Rule[] => (Array.isArray(v) ? (v as Rule[]) : []);

/** What a MatchResources selects; `ruled` says whether absent or empty resourceRules match nothing (a policy's) or everything (a binding's). */
function criteriaOf(m: Obj, ruled: boolean): MatchCriteria {
  const resourceRules = rules(m.resourceRules);
  return {
    rules: ruled || resourceRules.length > 0 ? resourceRules : undefined,
    excludeRules: rules(m.excludeResourceRules),
    namespaceSelector: (m.namespaceSelector ?? undefined) as LabelSelector | undefined,
    objectSelector: (m.objectSelector ?? undefined) as LabelSelector | undefined,
    matchPolicy: typeof m.matchPolicy === 'string' ? m.matchPolicy : undefined,
  };
}

/** The writes a policy applies to: its matchConstraints. */
export const policyCriteria = (policy: Obj): MatchCriteria => criteriaOf((specOf(policy).matchConstraints ?? {}) as Obj, true);

/** The writes a binding applies to: its matchResources, or (absent) wherever its policy applies. */
export function bindingCriteria(binding: Obj): MatchCriteria {
  const m = specOf(binding).matchResources;
  return m === undefined || m === null ? {} : criteriaOf(m as Obj, false);
}

/** The CEL `namespaceObject`: the namespace of a namespaced write, null for a cluster-scoped one (a Namespace included). */
export const namespaceObjectOf = (a: Attributes, m: MatchContext): KubeObject | undefined =>
  a.namespace === '' ? undefined : m.namespaceObject;

/** A binding that cannot be configured (unknown paramKind, params not found under `Deny`): its policy's failurePolicy decides. */
export class ConfigError extends Error {}

/** The params a binding refers to: `[null]` when the policy has none, `[]` when none were found and that is allowed. */
export function paramsFor(ctx: ServerContext, policy: Obj, binding: Obj, a: Attributes): (KubeObject | null)[] {
  const kind = specOf(policy).paramKind as { apiVersion?: string; kind?: string } | undefined;
  const ref = specOf(binding).paramRef as Obj | undefined;
  if (!kind || !ref) return [null];
  const [group, version] = String(kind.apiVersion).includes('/') ? String(kind.apiVersion).split('/') : ['', String(kind.apiVersion)];
  const strategy = ctx.registry.strategies().find((s) => s.group === group && s.kind === kind.kind && s.version(version!)?.served);
  if (!strategy) throw new ConfigError(`paramKind kind \`&ParamKind{APIVersion:${kind.apiVersion},Kind:${kind.kind},}\` not known`);
  let namespace = '';
  if (strategy.namespaced) {
    namespace = typeof ref.namespace === 'string' && ref.namespace !== '' ? ref.namespace : a.namespace;
    if (namespace === '') throw new ConfigError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (typeof ref.namespace === 'string' && ref.namespace !== '') {
    throw new ConfigError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  const candidates = [...ctx.store.current(strategy.storageId).values()].filter((o) => (o.metadata.namespace ?? '') === namespace);
  let found: KubeObject[];
  if (typeof ref.name === 'string') found = candidates.filter((o) => o.metadata.name === ref.name);
  else {
    let selector;
    try {
      selector = selectorFromLabelSelector(ref.selector as LabelSelector);
    } catch (e) {
      throw new ConfigError((e as Error).message);
    }
    found = candidates.filter((o) => selector.matches(o.metadata.labels as Record<string, string> | undefined)).sort(byName);
  }
  if (found.length === 0 && ref.parameterNotFoundAction === 'Deny')
    throw new ConfigError('no params found for policy binding with `Deny` parameterNotFoundAction');
  return found.map((o) => strategy.toExternal(o, version!));
}
