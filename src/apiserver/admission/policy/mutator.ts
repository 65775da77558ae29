/**
 * One mutating policy applied for one binding and one param: its match conditions against the
 * object as it reached the policy, then each mutation in order, each seeing the result of the one
 * before (with the variables evaluated afresh for it, within a budget of its own). An
 * `ApplyConfiguration` is merged as server-side apply merges (keyed lists by key, sets by value),
 * refusing one that would replace an atomic list; a `JSONPatch` is applied as RFC 6902 says, except
 * that a failed `test` leaves the object as it was, as kube-apiserver does. The outcome is data.
 */
import { applyJsonPatch, PatchError } from '../../patch/index.js';
import { mergeApplyConfiguration, type Shape } from '../../apply/index.js';
import { clone, type KubeObject } from '../../../meta/index.js';
import { list, prepare, run, SKIP, withObjectLiterals, type EvaluationInput } from '../../admission-cel/index.js';

type Obj = Record<string, unknown>;

export type MutationOutcome = { ok: true; matched: boolean; object: KubeObject } | { ok: false; error: string };

const isPlain = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

/** A CEL value as the JSON it stands for: ints as numbers, timestamps as RFC 3339, bytes as base64. */
function toJson(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString().replace('.000Z', 'Z');
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(toJson);
  if (isPlain(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
  return v;
}

/** The paths (`.spec.args`) where `value` would replace an atomic list whole. */
function atomicLists(value: unknown, shape: Shape, path: string): string[] {
  if (Array.isArray(value)) {
    if (shape.list().kind === 'atomic') return [path];
    return value.flatMap((e, i) => atomicLists(e, shape.items(), `${path}[${i}]`));
  }
  if (isPlain(value)) return Object.entries(value).flatMap(([k, v]) => atomicLists(v, shape.field(k), `${path}.${k}`));
  return [];
}

function applyConfiguration(object: KubeObject, value: unknown, shape: Shape): KubeObject | string {
  if (!isPlain(value)) return `unsupported return type from ApplyConfiguration expression: ${Array.isArray(value) ? 'list' : typeof value}`;
  const atomics = atomicLists(value, shape, '');
  if (atomics.length > 0)
    return `error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: ${atomics.join(', ')}`;
  return mergeApplyConfiguration(clone(object), value, shape) as KubeObject;
}

function jsonPatch(object: KubeObject, value: unknown): KubeObject | string {
  if (!Array.isArray(value)) return 'type mismatch: JSONPatchType.expression should evaluate to array';
  try {
    return applyJsonPatch(object, value) as KubeObject;
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    if (e.message.startsWith('testing value ')) return object;
    return `JSONPath: ${e.message}`;
  }
}

/** Runs `input.policy`'s mutations over `object`, given how the kind's lists merge. */
export function mutate(input: EvaluationInput, object: KubeObject, shape: Shape): MutationOutcome {
  const spec = input.policy.spec as Obj;
  const first = prepare(input, object);
  if (first === SKIP) return { ok: true, matched: false, object };
  if ('error' in first) return { ok: false, error: first.error };
  let current = object;
  for (const [i, m] of list(spec.mutations).entries()) {
    const scope = i === 0 ? first : prepare(input, current, false);
    if (scope === SKIP) continue;
    if ('error' in scope) return { ok: false, error: scope.error };
    const apply = m.patchType === 'ApplyConfiguration';
    const source = String(((apply ? m.applyConfiguration : m.jsonPatch) as Obj | undefined)?.expression ?? '');
    const r = run(withObjectLiterals(source), { ...scope.env, patchTypes: true }, scope, source);
    if (!r.ok) return { ok: false, error: r.error };
    const value = toJson(r.value);
    const next = apply ? applyConfiguration(current, value, shape) : jsonPatch(current, value);
    if (typeof next === 'string') return { ok: false, error: next };
    current = next;
  }
  return { ok: true, matched: true, object: current };
}
