/**
 * The `fieldSelector` query parameter: `f=v`, `f==v`, `f!=v` terms AND-ed by commas, with `\,`, `\=`
 * and `\\` escapes (apimachinery `fields.ParseSelector`). Which fields a kind supports is the
 * strategy's business; this file only parses and matches over a field-value function.
 * Invariant: parse errors and unsupported fields are 400s raised before any object is read.
 */
import { badRequest } from '../status.js';

export interface FieldTerm {
  field: string;
  value: string;
  negate: boolean;
}

/** Splits on unescaped `sep`, keeping escapes for the next stage. */
function splitUnescaped(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '\\' && i + 1 < s.length) {
      cur += ch + s[i + 1]!;
      i++;
    } else if (ch === sep) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

function unescape(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '\\') {
      const next = s[i + 1];
      if (next !== '\\' && next !== ',' && next !== '=') throw badRequest(`invalid selector: invalid escape sequence in ${JSON.stringify(s)}`);
      out += next;
      i++;
    } else out += ch;
  }
  return out;
}

/** Parses the selector into terms; throws a 400 on syntax errors. */
export function parseFieldSelector(text: string): FieldTerm[] {
  if (text.trim() === '') return [];
  return splitUnescaped(text, ',').map((raw) => {
    const m = /^(.*?)(!=|==|=)(.*)$/s.exec(raw);
    if (!m || !m[1]!.trim()) throw badRequest(`invalid selector: '${raw}'; can't understand '${raw}'`);
    return { field: m[1]!.trim(), value: unescape(m[3]!), negate: m[2] === '!=' };
  });
}

/** Matches an object through a field-value function (undefined values compare as ""). */
export function matchFields(terms: FieldTerm[], valueOf: (field: string) => string | undefined): boolean {
  for (const t of terms) {
    const v = valueOf(t.field) ?? '';
    if ((v === t.value) === t.negate) return false;
  }
  return true;
}
