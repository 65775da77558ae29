/**
 * Boolean query parameters, decoded as apimachinery's parameter codec decodes them: an absent
 * parameter is unset, `false` and `0` (any case) are false, and every other value is true, an empty
 * one (`?watch`, `?watch=`) included. Clients lean on that leniency (the Python client sends
 * `watch=True`), so every boolean parameter goes through this one function and none is refused.
 * Only the first value counts when a parameter is repeated, as there.
 */

/** The parameter's value, or undefined when it is absent (the codec's nil `*bool`). */
export function queryBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  return v !== '0' && v.toLowerCase() !== 'false';
}
