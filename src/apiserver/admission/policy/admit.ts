/**
 * Validating admission by policy, as kube-apiserver's ValidatingAdmissionPolicy plugin runs it
 * after a write's own validation: every stored policy whose matchConstraints select the write, with
 * each of its bindings that also select it, once per param the binding refers to. Failed
 * validations act as the binding says (Deny → the first denial is the answer, Warn → a Warning
 * header, Audit → an audit annotation); configuration and evaluation errors follow the policy's
 * failurePolicy. Synchronous, so the write pipeline stays atomic.
 */
import type { Status } from '../../../meta/index.js';
import type { ServerContext } from '../../registry/index.js';
import { ApiStatusError, qualifiedResource } from '../../ground/index.js';
import { matches, type MatchContext } from '../matching.js';
import { versioned, type Attributes } from '../../admission-cel/index.js';
import {
  bindingCriteria,
  byName,
  ConfigError,
  isAdmissionConfiguration,
  nameOf,
  namespaceObjectOf,
  paramsFor,
  policyCriteria,
  specOf,
} from './params.js';
import { validate, type Decision } from './validator.js';

const GROUP = 'admissionregistration.k8s.io';
const POLICIES = `${GROUP}/validatingadmissionpolicies`;
const BINDINGS = `${GROUP}/validatingadmissionpolicybindings`;
const VALIDATION_FAILURE = 'validation.policy.admission.k8s.io/validation_failure';
const MAX_AUDIT_VALUE_LENGTH = 10 * 1024;

export interface PolicyAdmission {
  warnings: string[];
  annotations: Record<string, string>;
}

interface Denial extends Decision {
  policy: string;
  binding: string | undefined;
}

function denied(a: Attributes, d: Denial): ApiStatusError {
  const message = d.binding
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const reason = d.reason ?? 'Invalid';
  const code = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413 }[reason] ?? 422;
  const name = a.name || String(a.object?.metadata.generateName ?? '');
  const status: Status & { code: number } = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${qualifiedResource({ group: a.group, plural: a.resource })} "${name}" is forbidden: ${message}`,
    reason,
    details: { name, group: a.group, kind: a.resource, causes: [{ message }] },
    code,
  };
  return new ApiStatusError(status);
}

/**
 * Runs every matching policy over the write `a`. Throws the first denial as kube-apiserver's Status;
 * otherwise answers the warnings to add and the audit annotations recorded.
 */
export function admitWithPolicies(ctx: ServerContext, a: Attributes, m: MatchContext): PolicyAdmission {
  const out: PolicyAdmission = { warnings: [], annotations: {} };
  if (isAdmissionConfiguration(a)) return out;
  const policies = [...ctx.store.current(POLICIES).values()].sort(byName);
  if (policies.length === 0) return out;
  const bindings = [...ctx.store.current(BINDINGS).values()].sort(byName);
  const namespaceObject = namespaceObjectOf(a, m);
  const denials: Denial[] = [];
  for (const policy of policies) {
    const spec = specOf(policy);
    const as = matches(policyCriteria(policy), a, m);
    if (!as) continue;
    const write = versioned(a, as);
    const failClosed = spec.failurePolicy !== 'Ignore';
    const collected = new Map<string, string[]>();
    for (const binding of bindings) {
      if (specOf(binding).policyName !== nameOf(policy) || !matches(bindingCriteria(binding), a, m)) continue;
      const actions = (specOf(binding).validationActions ?? []) as string[];
      let params;
      try {
        params = paramsFor(ctx, policy, binding, a);
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        if (failClosed)
          denials.push({
            action: 'deny',
            message: `failed to configure binding: ${e.message}`,
            policy: nameOf(policy),
            binding: nameOf(binding),
          });
        continue;
      }
      for (const p of params) {
        const outcome = validate({ policy, write, params: p, namespaceObject });
        outcome.decisions.forEach((d, i) => {
          if (d.action !== 'deny') return;
          if (actions.includes('Deny')) denials.push({ ...d, policy: nameOf(policy), binding: nameOf(binding) });
          if (actions.includes('Warn'))
            out.warnings.push(
              `Validation failed for ValidatingAdmissionPolicy '${nameOf(policy)}' with binding '${nameOf(binding)}': ${d.message}`,
            );
          if (actions.includes('Audit'))
            out.annotations[VALIDATION_FAILURE] ??= JSON.stringify([
              { message: d.message, policy: nameOf(policy), binding: nameOf(binding), expressionIndex: i, validationActions: actions },
            ]);
        });
        for (const [key, value] of outcome.auditAnnotations) {
          const values = collected.get(key) ?? [];
          const v = value.slice(0, MAX_AUDIT_VALUE_LENGTH);
          if (!values.includes(v)) values.push(v);
          collected.set(key, values);
        }
      }
    }
    for (const [key, values] of collected) out.annotations[`${nameOf(policy)}/${key}`] = values.join(', ');
  }
  if (Object.keys(out.annotations).length > 0) {
    ctx.onAdmissionAudit?.({
      operation: a.operation,
      group: a.group,
      resource: a.resource,
      namespace: a.namespace,
      name: a.name,
      annotations: out.annotations,
    });
  }
  if (denials.length > 0) throw denied(a, denials[0]!);
  return out;
}
