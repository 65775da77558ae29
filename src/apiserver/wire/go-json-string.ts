/**
 * JSON text as Go's `encoding/json` writes it, which is how kube-apiserver writes every body: like
 * `JSON.stringify`, except that `<`, `>`, `&`, U+2028 and U+2029 are escaped as `\u003c` and so on
 * (Go's HTML-safe default). Those characters can only occur inside strings, so escaping them in a
 * whole JSON text is exact. Invariant: for any well-formed Unicode text, the bytes equal Go's.
 */
const HTML_UNSAFE_ALL = /[<>&\u2028\u2029]/g;

// Five `includes` scans are far faster than one regular-expression test over a long text (a list's).
const needsEscapes = (json: string): boolean =>
  json.includes('<') || json.includes('>') || json.includes('&') || json.includes('\u2028') || json.includes('\u2029');

const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `json` (text from `JSON.stringify`) with Go's escapes. */
export function goJson(json: string): string {
  // The check first: almost no text has these characters, and a scan is cheaper than a replace.
  return needsEscapes(json) ? json.replace(HTML_UNSAFE_ALL, escape) : json;
}

export const goJsonString = (s: string): string => goJson(JSON.stringify(s));
