/**
 * The name Go's `encoding/json` gives a JSON value's kind in its "cannot unmarshal X into ..." errors
 * (`bool`, `number`, `string`, `array`, `object`), so every decode error the server words the Go way
 * names kinds alike. `null` has no such error in Go; it is named `null` where we still refuse it.
 */
export function goJsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}
