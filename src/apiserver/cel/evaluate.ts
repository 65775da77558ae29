/**
 * Evaluating a compiled program over an activation (variables already in CEL form) within a cost
 * budget. The result is data: the value and the cost used, or the error as kube-apiserver words
 * it (`no such key: x`, `division by zero`, `operation cancelled: actual cost limit exceeded`).
 */
import type { Program } from './compile.js';
import { CostLimitExceeded, metered } from './runtime-cost.js';

export type EvaluationResult =
  { ok: true; value: unknown; cost: number } | { ok: false; error: string; cost: number; costExceeded: boolean };

/** The message of an engine or library error, in cel-go's words. */
function describe(e: unknown): string {
  const summary = (e as { summary?: string }).summary ?? (e instanceof Error ? e.message : String(e));
  return summary
    .replace(/^No such key: (.*)$/, 'no such key: $1')
    .replace(/^found no matching overload for '(.*)'$/, "no such overload: '$1'")
    .replace(/^no such overload: (.*)$/, 'no such overload: $1');
}

/**
 * Runs `program` over `activation`, halting once its cost passes `budget`. `strictCost` false (admission
 * expressions on 1.31, see `strictCost`) charges a library call only its step, not its own cost.
 */
export function evaluate(program: Program, activation: Record<string, unknown>, budget: number, strictCost = true): EvaluationResult {
  const r = metered(budget, () => program.run(activation), strictCost);
  if (r.ok) return { ok: true, value: r.value, cost: r.cost };
  if (r.error instanceof CostLimitExceeded) return { ok: false, error: r.error.message, cost: r.cost, costExceeded: true };
  return { ok: false, error: describe(r.error), cost: r.cost, costExceeded: false };
}
