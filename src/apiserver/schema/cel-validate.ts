/**
 * Running a schema's `x-kubernetes-validations` rules over an object, as kube-apiserver does after
 * the OpenAPI checks: every node with a value runs its rules with `self` bound to that value (in
 * lists and maps too, at any depth). A transition rule (one mentioning `oldSelf`) runs only on
 * update and only where the old value can be found — same field, same map key, same list-map
 * key — unless `optionalOldSelf` makes `oldSelf` an optional that may be empty. A failing rule is
 * reported at the node (or its `fieldPath`) with its `reason`, and a failure of a rule that is not
 * a transition rule, on a value the update did not change, is a warning rather than an error
 * (validation ratcheting). All rules of one write share one runtime cost budget; once it is spent,
 * no further rules run.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { jsonEqual } from '../../meta/index.js';
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
import { extensionsOf } from './extensions.js';
import { childPath, fieldCause, indexPath, type FieldCause } from '../ground/index.js';
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

/** The CEL rule failures of `obj` under `schema`; `old` is the stored object on an update. */
export function validateCelRules(obj: unknown, schema: JSONSchemaProps, old?: unknown): CelValidationResult {
  const run: Run = { remaining: RUNTIME_CEL_COST_BUDGET, stopped: false, out: { causes: [], warnings: [] } };
  visit(obj, old === undefined ? ABSENT : old, schema, '', true, run);
  return run.out;
}

function visit(value: unknown, old: Old, s: JSONSchemaProps, path: string, root: boolean, run: Run): void {
  if (value === null || value === undefined || run.stopped || s === null || typeof s !== 'object') return;
  const rules = rulesOf(s, root);
  if (rules.length > 0) runRules(rules, value, old, s, path, root, run);
  if (Array.isArray(value)) {
    const items = s.items;
    if (items === undefined || Array.isArray(items)) return;
    const oldItem = correlateItems(s, old);
    value.forEach((item, i) => visit(item, oldItem(item), items as JSONSchemaProps, indexPath(path, i), false, run));
  } else if (isJsonObject(value)) {
    const oldObj = old !== ABSENT && isJsonObject(old) ? old : undefined;
    const oldOf = (k: string): Old => (oldObj !== undefined && Object.hasOwn(oldObj, k) ? oldObj[k] : ABSENT);
    for (const [k, child] of Object.entries(value)) {
      const declared = s.properties?.[k];
      if (declared !== undefined) visit(child, oldOf(k), declared, childPath(path, k), false, run);
      else if (typeof s.additionalProperties === 'object') visit(child, oldOf(k), s.additionalProperties, childPath(path, k), false, run);
    }
  }
}

/** How list items find their old selves: by map keys for `x-kubernetes-list-type: map`, by value for sets, not at all otherwise. */
function correlateItems(s: JSONSchemaProps, old: Old): (item: unknown) => Old {
  if (old === ABSENT || !Array.isArray(old)) return () => ABSENT;
  const ext = extensionsOf(s);
  if (ext['x-kubernetes-list-type'] === 'map') {
    const keys = ext['x-kubernetes-list-map-keys'] ?? [];
    const keyOf = (x: unknown) => keys.map((k) => (isJsonObject(x) ? x[k] : undefined));
    return (item) => {
      const found = old.find((o) => jsonEqual(keyOf(o), keyOf(item)));
      return found === undefined ? ABSENT : found;
    };
  }
  if (ext['x-kubernetes-list-type'] === 'set') {
    return (item) => (old.some((o) => jsonEqual(o, item)) ? item : ABSENT);
  }
  return () => ABSENT;
}

function runRules(rules: CompiledRule[], value: unknown, old: Old, s: JSONSchemaProps, path: string, root: boolean, run: Run): void {
  const type = celTypeOf(s, root);
  const self = toCelValue(value, type);
  const unchanged = old !== ABSENT && jsonEqual(old, value);
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
    if (!r.usesOldSelf && unchanged) run.out.warnings.push(`${cause.field}: ${cause.message}`);
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
