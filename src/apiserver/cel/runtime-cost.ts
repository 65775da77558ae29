/**
 * The runtime cost of an evaluation: each AST node evaluated (including every step of a
 * comprehension) costs 1, as each interpretable step does in cel-go. A compiled program's nodes
 * are instrumented once; the meter in force is the one of the evaluation running now (evaluation
 * is synchronous, so there is at most one). When the meter passes its limit it throws, which halts
 * the engine mid-expression: a rule over a huge list stops, it does not run to the end.
 */
import type { ASTNode } from '@marcbachmann/cel-js';

export class CostLimitExceeded extends Error {
  override readonly name = 'CostLimitExceeded';
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

interface Meter {
  used: number;
  limit: number;
  /** Whether library calls cost what kube's library cost estimator says (strict cost), or one step like any call. */
  strict: boolean;
}

let current: Meter | undefined;

type EvaluateFn = (this: ASTNode, ev: unknown, ast: ASTNode, ctx: unknown) => unknown;

function tick(): void {
  if (current !== undefined && ++current.used > current.limit) throw new CostLimitExceeded();
}

/**
 * Adds `cost` to the evaluation running now: a library call that costs more than the one step its
 * node counts. Without strict cost the call costs only its step, and nothing is added.
 */
export function charge(cost: number): void {
  if (current !== undefined && current.strict && (current.used += cost) > current.limit) throw new CostLimitExceeded();
}

/**
 * Makes every node reachable from `root` count its evaluations. The engine replaces a node's
 * `evaluate` with the resolved operator on first use; the setter keeps that resolved function
 * and the getter hands out the counting wrapper, so the count survives that replacement.
 */
export function instrument(root: ASTNode): void {
  const seen = new Set<object>();
  const visit = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) return x.forEach(visit);
    if (isNode(x)) {
      wrap(x);
      visit(x.args);
      visit(x.meta);
      return;
    }
    if (Object.getPrototypeOf(x) === Object.prototype) for (const v of Object.values(x)) visit(v);
  };
  visit(root);
}

function isNode(x: object): x is ASTNode & { meta: object } {
  return 'op' in x && 'args' in x && 'pos' in x && typeof (x as { evaluate?: unknown }).evaluate === 'function';
}

function wrap(node: ASTNode): void {
  const first = (node as unknown as { evaluate: EvaluateFn }).evaluate;
  let resolved: EvaluateFn | undefined;
  const counting: EvaluateFn = function (ev, ast, ctx) {
    if (resolved === undefined) return first.call(this, ev, ast, ctx);
    tick();
    return resolved.call(this, ev, ast, ctx);
  };
  Object.defineProperty(node, 'evaluate', {
    configurable: true,
    get: () => counting,
    set: (fn: EvaluateFn) => {
      resolved = fn;
    },
  });
}

/** Runs `fn` with a meter of `limit` (`strict`: library calls charge their own cost): its result or what it threw, and the cost used either way. */
export function metered<T>(
  limit: number,
  fn: () => T,
  strict: boolean,
): { ok: true; value: T; cost: number } | { ok: false; error: unknown; cost: number } {
  const meter: Meter = { used: 0, limit, strict };
  const outer = current;
  current = meter;
  try {
    return { ok: true, value: fn(), cost: meter.used };
  } catch (error) {
    return { ok: false, error, cost: meter.used };
  } finally {
    current = outer;
  }
}
