/**
 * kube-apiserver's CEL cost limits (k8s.io/apiserver/pkg/apis/cel): what one expression may
 * cost when estimated and when run, and what all the rules of one CRD may cost together.
 */

/** The most one expression may cost at run time. */
export const PER_CALL_LIMIT = 1_000_000;
/** The most all the rules run for one object write may cost together at run time. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** The most one rule may be estimated to cost. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** The most all the rules of one CRD schema may be estimated to cost together. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
/** The longest message a `messageExpression` may produce. */
export const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;

/**
 * Whether admission expressions (policies, webhook match conditions) on `minor` pay the Kubernetes
 * libraries' own run-time costs (an authorization check 350 000): StrictCostEnforcementForVAP and
 * …ForWebhooks were off by default in 1.31 and locked on from 1.32. CRD rules always pay them.
 */
export const strictCost = (minor: number): boolean => minor >= 32;

/** How kube-apiserver words an estimate over its limit. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const by = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${by} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
