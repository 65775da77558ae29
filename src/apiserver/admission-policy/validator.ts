/**
 * One policy evaluated for one binding and one param: match conditions, then the variables, the
 * validations (with message, messageExpression and reason) and the audit annotations, all within
 * one runtime cost budget. The outcome is data (decisions and annotations, as kube-apiserver's
 * validator returns them); what a decision does (deny, warn, audit) is the binding's to say.
 */
import { evaluate, RUNTIME_CEL_COST_BUDGET, toCelValue, type CelType } from '../cel/index.js';
import type { KubeObject } from '../../meta/index.js';
import type { AdmissionAttributes } from './attributes.js';
import { compiled, type Environment } from './expressions.js';

type Obj = Record<string, unknown>;
const DYN: CelType = { kind: 'dyn' };
const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

export interface Decision {
  /** `deny` for a failed validation, or an error under failurePolicy Fail. */
  action: 'admit' | 'deny';
  message: string;
  /** The status reason for a failed validation (`Invalid` when none was given). */
  reason?: string;
}

export interface ValidationOutcome {
  decisions: Decision[];
  /** `key` → value for each audit annotation whose expression gave a string. */
  auditAnnotations: [string, string][];
}

const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const objectOf = (o: KubeObject | undefined | null): unknown => (o ? toCelValue(o, DYN) : null);

/** The CEL `request` variable (`admission.k8s.io` AdmissionRequest, as policies see it). */
function requestOf(a: AdmissionAttributes): unknown {
  const kind = { group: a.group, version: a.version, kind: a.kind };
  const resource = { group: a.group, version: a.version, resource: a.resource };
  return toCelValue(
    {
      kind,
      resource,
      subResource: a.subresource,
      requestKind: kind,
      requestResource: resource,
      requestSubResource: a.subresource,
      name: a.name,
      namespace: a.namespace,
      operation: a.operation,
      userInfo: { username: 'admin', groups: ['system:masters', 'system:authenticated'] },
      dryRun: a.dryRun,
      options: a.options,
    },
    DYN,
  );
}

/** What the expressions of one evaluation share: the variables, the cost budget left, the variables that failed. */
interface Scope {
  activation: Obj;
  budget: { remaining: number };
  failedVariables: Map<string, string>;
}

type Result = { ok: true; value: unknown } | { ok: false; error: string; outOfBudget: boolean };

/** Evaluates one expression, wrapping errors as kube-apiserver does. */
function run(expression: string, env: Environment, scope: Scope): Result {
  const { activation, budget, failedVariables } = scope;
  const c = compiled(expression, env);
  if (!c.ok) return { ok: false, error: c.error, outOfBudget: false };
  // Variables are evaluated once each; an expression that reads one that failed fails with its error.
  for (const [v, why] of failedVariables) {
    if (new RegExp(`\\bvariables\\s*\\.\\s*${v}\\b`).test(expression)) {
      return {
        ok: false,
        error: `expression '${expression}' resulted in error: composited variable "${v}" fails to evaluate: ${why}`,
        outOfBudget: false,
      };
    }
  }
  const r = evaluate(c.program, activation, budget.remaining);
  budget.remaining -= r.cost;
  if (r.ok) return { ok: true, value: r.value };
  if (r.costExceeded || budget.remaining < 0) return { ok: false, error: OUT_OF_BUDGET, outOfBudget: true };
  return { ok: false, error: `expression '${expression}' resulted in error: ${r.error}`, outOfBudget: false };
}

/** kube-apiserver's failure message: a usable messageExpression result, else the message, else the expression. */
function messageOf(v: Obj, result: Result | undefined): string {
  if (result?.ok && typeof result.value === 'string') {
    const m = result.value.trim();
    if (m !== '' && !m.includes('\n')) return m;
  }
  const message = typeof v.message === 'string' ? v.message.trim() : '';
  return message !== '' ? message : `failed expression: ${String(v.expression).trim()}`;
}

export interface ValidationInput {
  policy: Obj;
  attributes: AdmissionAttributes;
  /** The param object, or null (no paramKind, or a binding without paramRef). */
  params: KubeObject | null;
  namespaceObject: KubeObject | undefined;
}

export function validate({ policy, attributes, params, namespaceObject }: ValidationInput): ValidationOutcome {
  const spec = policy.spec as Obj;
  const failAction: Decision['action'] = spec.failurePolicy === 'Ignore' ? 'admit' : 'deny';
  const errorOutcome = (message: string): ValidationOutcome => ({ decisions: [{ action: failAction, message }], auditAnnotations: [] });
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  const activation: Obj = {
    object: objectOf(attributes.object),
    oldObject: objectOf(attributes.oldObject),
    request: requestOf(attributes),
    namespaceObject: objectOf(namespaceObject),
    ...(hasParams ? { params: objectOf(params) } : {}),
    variables: {},
  };
  const scope: Scope = { activation, budget: { remaining: RUNTIME_CEL_COST_BUDGET }, failedVariables: new Map() };
  const conditionEnv: Environment = { hasParams, variables: [] };
  const conditionErrors: string[] = [];
  for (const c of list(spec.matchConditions)) {
    const r = run(String(c.expression), conditionEnv, scope);
    if (!r.ok) conditionErrors.push(r.error);
    else if (r.value !== true) {
      if (typeof r.value === 'boolean') return { decisions: [], auditAnnotations: [] };
      conditionErrors.push(`expression '${String(c.expression)}' resulted in error: no such overload`);
    }
  }
  if (conditionErrors.length > 0)
    return errorOutcome(conditionErrors.length === 1 ? conditionErrors[0]! : `[${conditionErrors.join(', ')}]`);

  const declared: string[] = [];
  for (const v of list(spec.variables)) {
    const r = run(String(v.expression), { hasParams, variables: [...declared] }, scope);
    const name = String(v.name);
    if (r.ok) (activation.variables as Obj)[name] = r.value;
    else if (r.outOfBudget) return errorOutcome(r.error);
    else scope.failedVariables.set(name, r.error.replace(/^expression '.*' resulted in error: /s, ''));
    declared.push(name);
  }
  const env: Environment = { hasParams, variables: declared };

  const decisions: Decision[] = [];
  for (const v of list(spec.validations)) {
    const r = run(String(v.expression), env, scope);
    if (!r.ok) {
      if (r.outOfBudget) return errorOutcome(r.error);
      decisions.push({ action: failAction, message: r.error });
    } else if (r.value === true) decisions.push({ action: 'admit', message: '' });
    else {
      const m = typeof v.messageExpression === 'string' ? run(v.messageExpression, env, scope) : undefined;
      if (m && !m.ok && m.outOfBudget) return errorOutcome(m.error);
      decisions.push({ action: 'deny', message: messageOf(v, m), reason: typeof v.reason === 'string' ? v.reason : 'Invalid' });
    }
  }
  const auditAnnotations: [string, string][] = [];
  for (const a of list(spec.auditAnnotations)) {
    const r = run(String(a.valueExpression), env, scope);
    if (!r.ok) {
      if (r.outOfBudget) return errorOutcome(r.error);
      decisions.push({ action: failAction, message: r.error });
    } else if (typeof r.value === 'string') auditAnnotations.push([String(a.key), r.value]);
    else if (r.value !== null) {
      decisions.push({
        action: failAction,
        message: `valueExpression '${String(a.valueExpression)}' resulted in unsupported return type: ${typeof r.value}. Return type must be either string or null.`,
      });
    }
  }
  return { decisions, auditAnnotations };
}
