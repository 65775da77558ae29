/**
 * Which webhooks a write is sent to, by kube-apiserver's rules: a webhook is called when one of its
 * `rules` matches (operation, API group, version, resource with the star forms and `<resource>/<sub>`
 * forms, and scope), its `namespaceSelector` matches the namespace's labels (a Namespace is matched
 * by its own labels; other cluster-scoped objects always match), and its `objectSelector` matches
 * the labels of the object or of the old object. Absent selectors match everything.
 * Invariant: pure functions of the configuration and the attributes.
 */
import { selectorFromLabelSelector, type LabelSelector } from '../../meta/index.js';
import type { WebhookAdmissionAttributes as AdmissionAttributes } from '../admission-cel/index.js';

/** A rule as the API reads it (`resources` and `scope` included). */
export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

/** The fields of a Mutating- or ValidatingWebhook that decide whether it is called. */
export interface MatchableWebhook {
  rules?: WebhookRule[];
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
}

const listMatches = (list: readonly string[] | undefined, value: string): boolean => (list ?? []).some((x) => x === '*' || x === value);

function resourceMatches(patterns: readonly string[] | undefined, resource: string, subresource: string): boolean {
  return (patterns ?? []).some((p) => {
    const [res, sub = ''] = p.split('/', 2) as [string, string?];
    if (p === '*/*') return true;
    if (p === '*') return subresource === '';
    const resOk = res === '*' || res === resource;
    return resOk && (sub === '*' ? true : sub === subresource);
  });
}

/** Whether one rule matches the attributes. */
export function ruleMatches(rule: WebhookRule, a: AdmissionAttributes): boolean {
  const scope = rule.scope ?? '*';
  const scopeOk = scope === '*' || (scope === 'Namespaced' ? a.namespaced : !a.namespaced);
  return (
    scopeOk &&
    listMatches(rule.operations, a.operation) &&
    listMatches(rule.apiGroups, a.group) &&
    listMatches(rule.apiVersions, a.version) &&
    resourceMatches(rule.resources, a.resource, a.subresource)
  );
}

/** Whether the webhook is called for the attributes: a rule, the namespace selector and the object selector match. */
export function webhookMatches(webhook: MatchableWebhook, a: AdmissionAttributes): boolean {
  if (!(webhook.rules ?? []).some((r) => ruleMatches(r, a))) return false;
  if (webhook.namespaceSelector) {
    const selector = selectorFromLabelSelector(webhook.namespaceSelector);
    const isNamespace = a.group === '' && a.resource === 'namespaces';
    if (isNamespace) {
      if (!selector.matches((a.object ?? a.oldObject)?.metadata.labels)) return false;
    } else if (a.namespaced && !selector.matches(a.namespaceLabels)) return false;
  }
  if (webhook.objectSelector) {
    const selector = selectorFromLabelSelector(webhook.objectSelector);
    const labelsOf = [a.object, a.oldObject].filter((o) => o !== undefined).map((o) => o.metadata.labels);
    if (!labelsOf.some((l) => selector.matches(l))) return false;
  }
  return true;
}
