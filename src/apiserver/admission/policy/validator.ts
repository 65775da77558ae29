/**
 * One policy evaluated for one binding and one param: match conditions, then the variables, the
 * validations (with message, messageExpression and reason) and the audit annotations, all within
 * one runtime cost budget. The outcome is data (decisions and annotations, as kube-apiserver's
 * validator returns them); what a decision does (deny, warn, audit) is the binding's to say.
 */
import { list, prepare, run, SKIP, type EvaluationInput, type Result } from '../../admission-cel/index.js';

type Obj = Record<string, unknown>;

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

/** kube-apiserver's failure message: a usable messageExpression result, else the message, else the expression. */
function messageOf(v: Obj, result: Result | undefined): string {
  if (result?.ok && typeof result.value === 'string') {
    const m = result.value.trim();
    if (m !== '' && !m.includes('\n')) return m;
  }
  const message = typeof v.message === 'string' ? v.message.trim() : '';
  return message !== '' ? message : `failed expression: ${String(v.expression).trim()}`;
}

export function validate(input: EvaluationInput): ValidationOutcome {
  const spec = input.policy.spec as Obj;
  const failAction: Decision['action'] = spec.failurePolicy === 'Ignore' ? 'admit' : 'deny';
  const errorOutcome = (message: string): ValidationOutcome => ({ decisions: [{ action: failAction, message }], auditAnnotations: [] });
  const scope = prepare(input);
  if (scope === SKIP) return { decisions: [], auditAnnotations: [] };
  if ('error' in scope) return errorOutcome(scope.error);
  const { env } = scope;

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
