/**
 * Running a schema's `x-kubernetes-validations` rules over an object, as kube-apiserver does after
 * the OpenAPI checks: every node with a value runs its rules with `self` bound to that value (in
 * lists and maps too, at any depth). A transition rule (one mentioning `oldSelf`) runs only on
 * update and only where the old value can be found — same field, same map key, same list-map
 * key — unless `optionalOldSelf` makes `oldSelf` an optional that may be empty. A failing rule is
 * reported at the node (or its `fieldPath`) with its `reason`, and a failure of a rule that is not
 * a transition rule is a warning rather than an error when the node is unchanged (validation
 * ratcheting): the node itself when it has an old self by `CorrelatedObject`'s pairing, else the
 * nearest ancestor that has one (items of an unchanged atomic list or set ratchet), never the
 * root's `apiVersion` and `kind`. All rules of one write share one runtime cost budget; once it
 * is spent, no further rules run.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import {
  celOptionalNone,
  celOptionalOf,
  evaluate,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES,
  toCelValue,
} from '../cel/index.js';
import { celTypeOf } from './cel-declarations.js';
import { rulesOf, type CompiledRule } from './cel-rules.js';
import { CorrelatedObject, mapListLookup } from './correlated-object.js';
import { extensionsOf } from './extensions.js';
import { childPath, fieldCause, indexPath, type FieldCause } from './field-cause.js';
import { isJsonObject } from './json-object.js';

export interface CelValidationResult {
  causes: FieldCause[];
  /** Ratcheted failures: rules that fail on values the update left unchanged. */
  warnings: string[];
}

interface Run {
  remaining: number;
  stopped: boolean;
  out: CelValidationResult;
}

/** No old value here (a create, or a field the update adds). */
const ABSENT = Symbol('absent');
type Old = unknown | typeof ABSENT;

/**
 * Where a node stands for ratcheting: its own pairing with its old self, or (when it has none) the
 * nearest ancestor's. Both are undefined for a create and for the root's `apiVersion` and `kind`.
 */
interface Ratchet {
  current: CorrelatedObject | undefined;
  parent: CorrelatedObject | undefined;
}

/**
 * The CEL rule failures of `obj` under `schema`; `old` is the stored object on an update, and
 * `correlation` its pairing with `obj` when the OpenAPI checks built it already.
 */
export function validateCelRules(
  obj: unknown,
  schema: JSONSchemaProps,
  old?: unknown,
  correlation: CorrelatedObject | undefined = old === undefined ? undefined : new CorrelatedObject(obj, old, schema),
): CelValidationResult {
  const run: Run = { remaining: RUNTIME_CEL_COST_BUDGET, stopped: false, out: { causes: [], warnings: [] } };
  visit(obj, old === undefined ? ABSENT : old, schema, '', true, { current: correlation, parent: undefined }, run);
  return run.out;
}

function visit(value: unknown, old: Old, s: JSONSchemaProps, path: string, root: boolean, ratchet: Ratchet, run: Run): void {
  if (value === null || value === undefined || run.stopped || s === null || typeof s !== 'object') return;
  const rules = rulesOf(s, root);
  if (rules.length > 0) runRules(rules, value, old, s, path, root, ratchet, run);
  if (Array.isArray(value)) {
    const items = s.items;
    if (items === undefined || Array.isArray(items)) return;
    const oldItem = correlateItems(s, old);
    value.forEach((item, i) => visit(item, oldItem(item), items as JSONSchemaProps, indexPath(path, i), false, step(ratchet, i), run));
  } else if (isJsonObject(value)) {
    const oldObj = old !== ABSENT && isJsonObject(old) ? old : undefined;
    const oldOf = (k: string): Old => (oldObj !== undefined && Object.hasOwn(oldObj, k) ? oldObj[k] : ABSENT);
    for (const [k, child] of Object.entries(value)) {
      const declared = s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      if (declared === undefined) continue;
      // The root's apiVersion and kind are the request's, not the stored object's: never ratcheted.
      const next = root && (k === 'apiVersion' || k === 'kind') ? { current: undefined, parent: undefined } : step(ratchet, k);
      visit(child, oldOf(k), declared, childPath(path, k), false, next, run);
    }
  }
}

/** A child's ratcheting standing: its own pairing, with this node as the nearest paired ancestor. */
function step(r: Ratchet, at: string | number): Ratchet {
  if (r.current === undefined) return r;
  return { current: typeof at === 'string' ? r.current.key(at) : r.current.index(at), parent: r.current };
}

/** Whether failures at a node are ratcheted: its own old self, or else the nearest paired ancestor, is unchanged. */
function ratcheted(r: Ratchet): boolean {
  return (r.current ?? r.parent)?.unchanged() === true;
}

/** How list items find their old selves for `oldSelf`: by map keys for `x-kubernetes-list-type: map`, not at all otherwise. */
function correlateItems(s: JSONSchemaProps, old: Old): (item: unknown) => Old {
  if (old === ABSENT || !Array.isArray(old) || extensionsOf(s)['x-kubernetes-list-type'] !== 'map') return () => ABSENT;
  const lookup = mapListLookup(s, old);
  return (item) => {
    const found = lookup(item);
    return found === undefined ? ABSENT : found;
  };
}

function runRules(
  rules: CompiledRule[],
  value: unknown,
  old: Old,
  s: JSONSchemaProps,
  path: string,
  root: boolean,
  ratchet: Ratchet,
  run: Run,
): void {
  const type = celTypeOf(s, root);
  const self = toCelValue(value, type);
  const typeName = extensionsOf(s)['x-kubernetes-int-or-string'] === true ? '' : (s.type ?? '');
  for (const r of rules) {
    if (run.stopped) return;
    if (r.program === undefined) continue;
    const activation: Record<string, unknown> = { self };
    if (r.usesOldSelf) {
      if (r.rule.optionalOldSelf === true) activation.oldSelf = old === ABSENT ? celOptionalNone() : celOptionalOf(toCelValue(old, type));
      else if (old === ABSENT) continue;
      else activation.oldSelf = toCelValue(old, type);
    }
    const ruleText = r.rule.rule.trim();
    const result = evaluate(r.program, activation, Math.min(PER_CALL_LIMIT, run.remaining));
    if (!result.ok) {
      if (result.costExceeded && run.remaining < PER_CALL_LIMIT) {
        stop(
          run,
          fieldCause.invalid(
            path,
            typeName,
            'validation failed due to running out of cost budget, no further validation rules will be run',
          ),
        );
      } else if (result.costExceeded) {
        stop(
          run,
          fieldCause.invalid(
            path,
            typeName,
            `'${result.error}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText}`,
          ),
        );
      } else if (result.error.startsWith('no such overload')) {
        run.out.causes.push(
          fieldCause.invalid(
            path,
            typeName,
            `'${result.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText}`,
          ),
        );
      } else {
        run.out.causes.push(fieldCause.invalid(path, typeName, `${result.error} evaluating rule: ${ruleText}`));
      }
      run.remaining -= result.cost;
      continue;
    }
    run.remaining -= result.cost;
    if (result.value === true) continue;
    const at = r.fieldPath.reduce((p, seg) => (seg.startsWith('[') ? `${p}${seg}` : childPath(p, seg)), path);
    const cause = failure(r, at, typeName, message(r, activation, run));
    if (!r.usesOldSelf && ratcheted(ratchet)) run.out.warnings.push(`${cause.field}: ${cause.message}`);
    else run.out.causes.push(cause);
  }
}

function stop(run: Run, cause: FieldCause): void {
  run.out.causes.push(cause);
  run.stopped = true;
}

/** The rule's message: its `messageExpression` when that yields a usable string, else `message`, else `failed rule: <rule>`. */
function message(r: CompiledRule, activation: Record<string, unknown>, run: Run): string {
  const fallback =
    r.rule.message !== undefined && r.rule.message.trim() !== '' ? r.rule.message.trim() : `failed rule: ${r.rule.rule.trim()}`;
  if (r.messageExpression === undefined) return fallback;
  const m = evaluate(r.messageExpression, activation, Math.min(PER_CALL_LIMIT, run.remaining));
  run.remaining -= m.cost;
  if (!m.ok || typeof m.value !== 'string') return fallback;
  const text = m.value;
  if (text.trim() === '' || /[\r\n]/.test(text) || Buffer.byteLength(text) > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES) return fallback;
  return text;
}

function failure(r: CompiledRule, path: string, typeName: string, detail: string): FieldCause {
  switch (r.rule.reason) {
    case 'FieldValueForbidden':
      return fieldCause.forbidden(path, detail);
    case 'FieldValueRequired':
      return fieldCause.required(path, detail);
    case 'FieldValueDuplicate':
      return fieldCause.duplicate(path, typeName);
    default:
      return fieldCause.invalid(path, typeName, detail);
  }
}
