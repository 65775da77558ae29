/**
 * CEL object construction for mutating policies (`Object{spec: Object.spec{replicas: 3}}`,
 * `JSONPatch{op: "add", path: "/x", value: 1}`) on an engine whose parser has no message
 * construction: each construction of a type the mutating environment declares (`Object`,
 * `Object.<field>…`, `JSONPatch`) is rewritten to the map literal with the same fields
 * (`{"spec": {"replicas": 3}}`). That is lossless here, since the server only ever uses such a
 * value as JSON (merged as an apply configuration, or read as a patch operation). String literals
 * are copied untouched, so text inside them is never rewritten.
 */

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const CONSTRUCTION = /[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*\s*\{/y;
const FIELD = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:([\s\S]*)$/;
const STRING_PREFIX = /^(?:[rR][bB]?|[bB][rR]?)$/;
const TYPES = new Set(['Object', 'JSONPatch']);
const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** The index just past the string literal whose opening quote is at `i`. */
function stringEnd(src: string, i: number, raw: boolean): number {
  const q = src[i]!;
  const triple = src.startsWith(q.repeat(3), i);
  const close = triple ? q.repeat(3) : q;
  let j = i + close.length;
  while (j < src.length) {
    if (!raw && src[j] === '\\') j += 2;
    else if (src.startsWith(close, j)) return j + close.length;
    else if (!triple && src[j] === '\n') return j;
    else j++;
  }
  return src.length;
}

const isQuote = (c: string | undefined): boolean => c === '"' || c === "'";

/** True when the quote at `j` opens a raw string (`r"…"`, `rb'…'`): backslashes are then literal. */
function rawBefore(src: string, j: number): boolean {
  const m = /(?:^|[^A-Za-z0-9_])([rRbB]{1,2})$/.exec(src.slice(Math.max(0, j - 3), j));
  return m !== null && STRING_PREFIX.test(m[1]!) && /[rR]/.test(m[1]!);
}

/** The index of the bracket closing the one at `open`, or -1 when it is not closed. */
function closing(src: string, open: number): number {
  const stack: string[] = [];
  for (let j = open; j < src.length;) {
    const c = src[j]!;
    if (isQuote(c)) {
      j = stringEnd(src, j, rawBefore(src, j));
      continue;
    }
    if (OPEN[c]) stack.push(OPEN[c]);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return j;
    }
    j++;
  }
  return -1;
}

/** `body` split at its top-level commas. */
function topLevelParts(body: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let j = 0; j < body.length;) {
    const c = body[j]!;
    if (isQuote(c)) {
      j = stringEnd(body, j, rawBefore(body, j));
      continue;
    }
    if (OPEN[c]) {
      const end = closing(body, j);
      j = end < 0 ? body.length : end + 1;
      continue;
    }
    if (c === ',') {
      parts.push(body.slice(start, j));
      start = j + 1;
    }
    j++;
  }
  parts.push(body.slice(start));
  return parts;
}

function fields(body: string): string {
  return topLevelParts(body)
    .map((part) => {
      const m = FIELD.exec(part);
      return m ? `"${m[1]}":${withObjectLiterals(m[2]!)}` : part;
    })
    .join(',');
}

/** `source` with every construction of `Object…` and `JSONPatch` written as a map literal. */
export function withObjectLiterals(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (isQuote(c)) {
      const end = stringEnd(source, i, false);
      out += source.slice(i, end);
      i = end;
      continue;
    }
    if (/[A-Za-z_]/.test(c) && !/[A-Za-z0-9_]/.test(source[i - 1] ?? '')) {
      IDENT.lastIndex = i;
      const id = IDENT.exec(source)![0];
      if (STRING_PREFIX.test(id) && isQuote(source[i + id.length])) {
        const end = stringEnd(source, i + id.length, /[rR]/.test(id));
        out += source.slice(i, end);
        i = end;
        continue;
      }
      CONSTRUCTION.lastIndex = i;
      const construction = CONSTRUCTION.exec(source);
      const selected = /\.\s*$/.test(source.slice(0, i));
      if (construction && TYPES.has(id) && !selected) {
        const open = i + construction[0].length - 1;
        const close = closing(source, open);
        if (close > 0) {
          out += `{${fields(source.slice(open + 1, close))}}`;
          i = close + 1;
          continue;
        }
      }
      out += id;
      i += id.length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}
