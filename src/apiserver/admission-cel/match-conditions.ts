/**
 * An admission webhook's `matchConditions`, as kube-apiserver evaluates them after the rules and
 * selectors matched: CEL expressions over `object`, `oldObject` and `request` (the AdmissionRequest),
 * each of which must give `true` for the webhook to be called. Any `false` skips the webhook, even
 * when another condition failed; otherwise an error is the webhook's failure, which its
 * `failurePolicy` decides (Fail refuses the write, Ignore skips the webhook). `authorizer` (and
 * `authorizer.requestResource`) asks the server's authorizer about the request's user. Compile
 * errors are refused when the configuration is written, so a stored condition always compiles;
 * each condition is held to the per-call cost limit, all of them to the runtime budget.
 */
import type { KubeObject } from '../../meta/index.js';
import {
  compile,
  evaluate,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  strictCost,
  toCelValue,
  type CelEnvironmentVersion,
  type CelType,
  type CompileResult,
} from '../cel/index.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import { celAuthorizerOf, celRequest } from './cel-request.js';
import type { Versioned } from './versioned.js';

/** One `matchConditions` entry. */
export interface MatchCondition {
  name: string;
  expression: string;
}

const DYN: CelType = { kind: 'dyn' };
const DECLARATIONS = { object: DYN, oldObject: DYN, request: DYN, authorizer: { kind: 'authorizer' } } as const;
const MAX_CONDITIONS = 64;
/** Enough for every configuration a test suite installs; past it the cache starts over rather than grow. */
const CACHE_LIMIT = 2_000;
const cache = new Map<string, CompileResult>();

/** `expression` compiled in the environment of `version`; evaluation leaves it out: the newest stored environment. */
function compiled(expression: string, version?: CelEnvironmentVersion): CompileResult {
  const key = version === undefined ? expression : `${version.minor}${version.mode}|${expression}`;
  let r = cache.get(key);
  if (r === undefined) {
    r = compile(expression, DECLARATIONS, version);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, r);
  }
  return r;
}

/**
 * The causes a webhook's `matchConditions` (at `field`) are refused for: names, count, and
 * expressions that do not compile at the server's `minor` (new ones at its compatibility version,
 * those in `stored`, which the old configuration had, as stored ones).
 */
export function matchConditionErrors(
  conditions: unknown,
  field: string,
  write: { minor: number; stored: ReadonlySet<string> },
): FieldCause[] {
  if (conditions === undefined || conditions === null) return [];
  if (!Array.isArray(conditions)) return [fieldCause.invalid(field, conditions, 'must be a list')];
  const out: FieldCause[] = [];
  if (conditions.length > MAX_CONDITIONS) out.push(fieldCause.tooMany(field, conditions.length, MAX_CONDITIONS, 'items'));
  const seen = new Set<string>();
  conditions.forEach((c: { name?: unknown; expression?: unknown } | null, i) => {
    const f = `${field}[${i}]`;
    const name = c?.name;
    if (typeof name !== 'string' || name === '') out.push(fieldCause.required(`${f}.name`));
    else if (seen.has(name)) out.push(fieldCause.duplicate(`${f}.name`, name));
    else seen.add(name);
    const expression = c?.expression;
    if (typeof expression !== 'string' || expression.trim() === '') {
      out.push(fieldCause.required(`${f}.expression`));
      return;
    }
    // Looked up trimmed, as kube-apiserver compiles and looks up a condition (the old ones as written).
    const r = compiled(expression, { minor: write.minor, mode: write.stored.has(expression.trim()) ? 'stored' : 'new' });
    if (!r.ok) out.push(fieldCause.invalid(`${f}.expression`, expression, r.error));
  });
  return out;
}

const celObject = (o: KubeObject | undefined): unknown => (o ? toCelValue(o, DYN) : null);

/** Whether the conditions let the webhook be called with the write `v`: true, false, or the error that failed them. */
export function evaluateMatchConditions(
  conditions: readonly MatchCondition[] | undefined,
  v: Versioned,
): { matches: boolean } | { error: string } {
  if (!conditions || conditions.length === 0) return { matches: true };
  const activation = {
    object: celObject(v.object),
    oldObject: celObject(v.oldObject),
    request: celRequest(v.attributes, v.as),
    authorizer: celAuthorizerOf(v.attributes),
  };
  const errors: string[] = [];
  let budget = RUNTIME_CEL_COST_BUDGET;
  const strict = strictCost(v.attributes.kubernetesMinor);
  for (const c of conditions) {
    const program = compiled(c.expression);
    if (!program.ok) {
      errors.push(`match condition '${c.name}' does not compile: ${program.error}`);
      continue;
    }
    const r = evaluate(program.program, activation, Math.min(PER_CALL_LIMIT, budget), strict);
    budget -= r.cost;
    if (!r.ok) errors.push(`expression '${c.expression}' resulted in error: ${r.error}`);
    else if (r.value === false) return { matches: false };
    else if (r.value !== true) errors.push(`expression '${c.expression}' resulted in error: no such overload`);
  }
  return errors.length === 0 ? { matches: true } : { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}
