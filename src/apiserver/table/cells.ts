/**
 * What a kind's printer reads its cells with. Stored objects are read defensively: a missing or
 * mistyped field is an empty cell (or the column's fallback), never an error, as the real server's
 * printers treat them; every helper here keeps that promise.
 */
import { ageOf } from './human-duration.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at a field path, or undefined when any step is missing. */
export function at(obj: unknown, ...path: string[]): unknown {
  let v = obj;
  for (const key of path) v = isObj(v) ? v[key] : undefined;
  return v;
}
export const text = (v: unknown, fallback = ''): string => (typeof v === 'string' && v !== '' ? v : fallback);
export const int = (v: unknown, fallback = 0): number => (typeof v === 'number' ? v : fallback);
export const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
export const count = (m: unknown): number => (isObj(m) ? Object.keys(m).length : 0);

/** The age of the object, as the `Age` column shows it. */
export const age = (obj: Obj, now: number): string => ageOf(at(obj, 'metadata', 'creationTimestamp'), now);
export const name = (obj: Obj): string => text(at(obj, 'metadata', 'name'));
export const orNone = (values: string[]): string => (values.length === 0 ? '<none>' : values.join(','));

/** A `key: value` map (a Service's selector) as `k=v,...`, `<none>` when empty. */
export const mapSelector = (m: unknown): string => orNone(Object.entries(isObj(m) ? m : {}).map(([k, v]) => `${k}=${String(v)}`));

/** A `LabelSelector` struct in selector syntax, `<none>` when empty. */
export function labelSelector(sel: unknown): string {
  const parts = Object.entries(isObj(at(sel, 'matchLabels')) ? (at(sel, 'matchLabels') as Obj) : {}).map(([k, v]) => `${k}=${String(v)}`);
  for (const e of list(at(sel, 'matchExpressions'))) {
    const key = text(e['key']);
    const values = (Array.isArray(e['values']) ? e['values'] : []).map(String).join(',');
    if (e['operator'] === 'In') parts.push(`${key} in (${values})`);
    else if (e['operator'] === 'NotIn') parts.push(`${key} notin (${values})`);
    else if (e['operator'] === 'Exists') parts.push(key);
    else if (e['operator'] === 'DoesNotExist') parts.push(`!${key}`);
  }
  return orNone(parts);
}
