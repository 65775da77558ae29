/**
 * What every admission policy expression of one evaluation shares (validating and mutating): the
 * CEL activation (`object`, `oldObject`, `request`, `namespaceObject`, `authorizer`, `params`,
 * `variables`), one runtime cost budget (each expression also held to the per-call limit), and the
 * match conditions and variables evaluated before the policy's own expressions. A variable is
 * evaluated once; an expression reading one that failed fails with its error, as kube-apiserver's
 * composited variables do.
 */
import { evaluate, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET, strictCost, toCelValue, type CelType } from '../cel/index.js';
import type { KubeObject } from '../../meta/index.js';
import { celAuthorizerOf, celRequest } from './cel-request.js';
import type { Versioned } from './versioned.js';
import { compiled, type Environment } from './expressions.js';

type Obj = Record<string, unknown>;
const DYN: CelType = { kind: 'dyn' };
export const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

export const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const objectOf = (o: KubeObject | undefined | null): unknown => (o ? toCelValue(o, DYN) : null);

/** The expressions' shared state: the activation, the cost budget left, the variables that failed. */
export interface Scope {
  activation: Obj;
  budget: { remaining: number };
  /** Whether library calls pay their own cost (not on 1.31, see `strictCost`). */
  strictCost: boolean;
  failedVariables: Map<string, string>;
  /** The environment of the policy's own expressions (every variable declared). */
  env: Environment;
}

export type Result = { ok: true; value: unknown } | { ok: false; error: string; outOfBudget: boolean };

/** Evaluates one expression, wrapping errors as kube-apiserver does; messages quote `source` (the expression as written). */
export function run(expression: string, env: Environment, scope: Scope, source = expression): Result {
  const { activation, budget, failedVariables } = scope;
  const c = compiled(expression, env);
  if (!c.ok) return { ok: false, error: c.error, outOfBudget: false };
  for (const [v, why] of failedVariables) {
    if (new RegExp(`\\bvariables\\s*\\.\\s*${v}\\b`).test(expression)) {
      return {
        ok: false,
        error: `expression '${source}' resulted in error: composited variable "${v}" fails to evaluate: ${why}`,
        outOfBudget: false,
      };
    }
  }
  // One expression may cost no more than the per-call limit (two authorization checks), all of them no more than the budget.
  const r = evaluate(c.program, activation, Math.min(PER_CALL_LIMIT, budget.remaining), scope.strictCost);
  budget.remaining -= r.cost;
  if (r.ok) return { ok: true, value: r.value };
  if (budget.remaining < 0) return { ok: false, error: OUT_OF_BUDGET, outOfBudget: true };
  return { ok: false, error: `expression '${source}' resulted in error: ${r.error}`, outOfBudget: false };
}

export interface EvaluationInput {
  policy: Obj;
  /** The write as the policy's matchConstraints matched it. */
  write: Versioned;
  /** The param object, or null (no paramKind, or a binding without paramRef). */
  params: KubeObject | null;
  namespaceObject: KubeObject | undefined;
}

/** The policy's match conditions did not all hold: nothing of it applies. */
export const SKIP = 'skip';

/**
 * A fresh scope for `input` with its match conditions checked and its variables evaluated: the
 * scope, `SKIP` when a condition is false, or the error (as the policy's failurePolicy will judge it).
 * `object` overrides the attributes' object (a mutating policy sees each earlier mutation's result).
 */
export function prepare(
  input: EvaluationInput,
  object = input.write.object,
  withConditions = true,
): Scope | typeof SKIP | { error: string } {
  const { policy, write, params, namespaceObject } = input;
  const spec = policy.spec as Obj;
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  const activation: Obj = {
    object: objectOf(object),
    oldObject: objectOf(write.oldObject),
    request: celRequest(write.attributes, write.as),
    namespaceObject: objectOf(namespaceObject),
    authorizer: celAuthorizerOf(write.attributes),
    ...(hasParams ? { params: objectOf(params) } : {}),
    variables: {},
  };
  const scope: Scope = {
    activation,
    budget: { remaining: RUNTIME_CEL_COST_BUDGET },
    strictCost: strictCost(write.attributes.kubernetesMinor),
    failedVariables: new Map(),
    env: { hasParams, variables: [] },
  };
  if (withConditions) {
    const conditionErrors: string[] = [];
    for (const c of list(spec.matchConditions)) {
      const r = run(String(c.expression), scope.env, scope);
      if (!r.ok) conditionErrors.push(r.error);
      else if (r.value !== true) {
        if (typeof r.value === 'boolean') return SKIP;
        conditionErrors.push(`expression '${String(c.expression)}' resulted in error: no such overload`);
      }
    }
    if (conditionErrors.length > 0)
      return { error: conditionErrors.length === 1 ? conditionErrors[0]! : `[${conditionErrors.join(', ')}]` };
  }
  const declared: string[] = [];
  for (const v of list(spec.variables)) {
    const r = run(String(v.expression), { hasParams, variables: [...declared] }, scope);
    const name = String(v.name);
    if (r.ok) (activation.variables as Obj)[name] = r.value;
    else if (r.outOfBudget) return { error: r.error };
    else scope.failedVariables.set(name, r.error.replace(/^expression '.*' resulted in error: /s, ''));
    declared.push(name);
  }
  scope.env = { hasParams, variables: declared };
  return scope;
}
