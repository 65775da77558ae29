/**
 * Schema `pattern`s are RE2 (Go's `regexp`) on the real server; here they run as JavaScript regular
 * expressions in Unicode mode. The two dialects agree on what schemas use except for a few
 * spellings, which are translated: inline flags (`(?i)`, `(?i:…)`, `(?s)`), `(?P<name>…)`,
 * escaped punctuation (`\-`, `\/`, `\_`, which Unicode mode refuses), `\A`, `\z` and `\Q…\E`.
 * What RE2 refuses (lookaround, backreferences) is refused with RE2's words, so a CRD the real
 * server rejects is rejected here too. Compiled patterns are cached: a schema's pattern is matched
 * once per value.
 */

const cache = new Map<string, RegExp | string>();

/** Why `pattern` is not a valid RE2 pattern, worded as Go words it; undefined when it is valid. */
export function patternError(pattern: string): string | undefined {
  const compiled = compile(pattern);
  return typeof compiled === 'string' ? compiled : undefined;
}

/** `pattern` as a JavaScript RegExp; throws with RE2's wording when it is not a valid pattern. */
export function compileSchemaPattern(pattern: string): RegExp {
  const compiled = compile(pattern);
  if (typeof compiled === 'string') throw new Error(compiled);
  return compiled;
}

function compile(pattern: string): RegExp | string {
  let found = cache.get(pattern);
  if (found === undefined) {
    try {
      found = new RegExp(translate(pattern), 'u');
    } catch (e) {
      found =
        e instanceof Re2Error ? `error parsing regexp: ${e.message}` : `error parsing regexp: ${goWording(pattern, (e as Error).message)}`;
    }
    cache.set(pattern, found);
  }
  return found;
}

class Re2Error extends Error {}

/** Go's words for the JavaScript errors patterns commonly hit. */
function goWording(pattern: string, message: string): string {
  if (/Nothing to repeat/.test(message)) {
    const op = /(^|[(|])([*+?]|\{\d+(,\d*)?\})/.exec(pattern)?.[2] ?? '*';
    return `missing argument to repetition operator: \`${op}\``;
  }
  if (/Unterminated group|Unmatched '\('/.test(message)) return `missing closing ): \`${pattern}\``;
  if (/Unmatched '\)'/.test(message)) return `unexpected ): \`${pattern}\``;
  if (/Unterminated character class/.test(message)) return `missing closing ]: \`${pattern}\``;
  if (/Lone quantifier brackets|Incomplete quantifier/.test(message)) return `invalid repeat count: \`${pattern}\``;
  if (/Invalid escape|Invalid Unicode escape|\\ at end of pattern/.test(message)) return `invalid escape sequence: \`${pattern}\``;
  if (/out of order/.test(message)) return `invalid character class range: \`${pattern}\``;
  return message;
}

const isLetter = (c: string): boolean => c.toLowerCase() !== c.toUpperCase();
const hex = (c: string): string => `\\u{${(c.codePointAt(0) as number).toString(16)}}`;
const SYNTAX = new Set([...'^$\\.*+?()[]{}|/']);

/** One escape sequence in RE2 as JavaScript (Unicode mode); `inClass` inside `[...]`. */
function escape(c: string, inClass: boolean): string {
  if (/[dDsSwWbBfnrtv0]/.test(c) && !(inClass && /[bB]/.test(c))) return `\\${c}`;
  if (/[1-9]/.test(c)) throw new Re2Error(`invalid escape sequence: \`\\${c}\``);
  if (c === 'A') return '^';
  if (c === 'z') return '(?![\\s\\S])';
  if (/[a-zA-Z]/.test(c)) return `\\${c}`;
  if (SYNTAX.has(c) || (inClass && c === '-')) return `\\${c}`;
  return hex(c);
}

/** A literal letter under `(?i)`: both cases. */
const fold = (c: string, inClass: boolean): string => {
  if (!isLetter(c) || c.toLowerCase() === c.toUpperCase()) return c;
  const both = `${c.toLowerCase()}${c.toUpperCase()}`;
  return inClass ? both : `[${both}]`;
};

function translate(p: string): string {
  let out = '';
  // Flags per open group: the flags in force inside it.
  const stack: { i: boolean; s: boolean }[] = [];
  let flags = { i: false, s: false };
  let i = 0;
  while (i < p.length) {
    const c = p[i] as string;
    if (c === '\\') {
      const n = p[i + 1];
      if (n === undefined) throw new Re2Error('trailing backslash at end of expression: ``');
      if (n === 'Q') {
        const end = p.indexOf('\\E', i + 2);
        const literal = p.slice(i + 2, end === -1 ? p.length : end);
        for (const ch of literal) out += flags.i ? fold(ch, false) : /[a-zA-Z0-9]/.test(ch) ? ch : hex(ch);
        i = end === -1 ? p.length : end + 2;
        continue;
      }
      if ((n === 'p' || n === 'P') && p[i + 2] !== '{') {
        out += `\\${n}{${p[i + 2] ?? ''}}`;
        i += 3;
        continue;
      }
      out += escape(n, false);
      i += 2;
      continue;
    }
    if (c === '[') {
      const end = classEnd(p, i);
      out += translateClass(p.slice(i, end), flags.i);
      i = end;
      continue;
    }
    if (c === '(') {
      if (p[i + 1] === '?') {
        const rest = p.slice(i + 2);
        if (/^(=|!|<=|<!)/.test(rest)) throw new Re2Error(`invalid or unsupported Perl syntax: \`(?${/^(<=|<!|=|!)/.exec(rest)?.[1]}\``);
        const named = /^P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
        if (named) {
          stack.push(flags);
          out += `(?<${named[1]}>`;
          i += 2 + named[0].length;
          continue;
        }
        const flagGroup = /^([imsU]*)(?:-([imsU]*))?([:)])/.exec(rest);
        if (flagGroup === null) throw new Re2Error(`invalid or unsupported Perl syntax: \`(?${rest.slice(0, 1)}\``);
        const next = { ...flags };
        for (const f of flagGroup[1] ?? '') if (f === 'i' || f === 's') next[f] = true;
        for (const f of flagGroup[2] ?? '') if (f === 'i' || f === 's') next[f] = false;
        i += 2 + flagGroup[0].length;
        if (flagGroup[3] === ')') flags = next;
        else {
          stack.push(flags);
          flags = next;
          out += '(?:';
        }
        continue;
      }
      stack.push(flags);
      out += '(';
      i++;
      continue;
    }
    if (c === ')') {
      flags = stack.pop() ?? flags;
      out += ')';
      i++;
      continue;
    }
    if (c === '.' && flags.s) {
      out += '[\\s\\S]';
      i++;
      continue;
    }
    if (c === '{' && !/^\{\d+(,\d*)?\}/.test(p.slice(i))) {
      // RE2 reads a brace that starts no repeat count as a literal; Unicode mode refuses it.
      out += '\\{';
      i++;
      continue;
    }
    if (c === '}' && !/\{\d+(,\d*)?$/.test(p.slice(0, i))) {
      out += '\\}';
      i++;
      continue;
    }
    const ch = String.fromCodePoint(p.codePointAt(i) as number);
    out += flags.i ? fold(ch, false) : ch;
    i += ch.length;
  }
  return out;
}

/** The index just past the character class starting at `start` (RE2: a `]` first in the class is literal). */
function classEnd(p: string, start: number): number {
  let i = start + 1;
  if (p[i] === '^') i++;
  if (p[i] === ']') i++;
  while (i < p.length && p[i] !== ']') {
    if (p[i] === '\\') i++;
    else if (p[i] === '[' && p[i + 1] === ':') {
      const close = p.indexOf(':]', i + 2);
      if (close !== -1) i = close + 1;
    }
    i++;
  }
  if (i >= p.length) throw new Re2Error(`missing closing ]: \`${p.slice(start)}\``);
  return i + 1;
}

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

function translateClass(cls: string, caseless: boolean): string {
  let out = '[';
  let i = 1;
  if (cls[i] === '^') {
    out += '^';
    i++;
  }
  const body = cls.slice(0, -1);
  let first = true;
  while (i < body.length) {
    const c = body[i] as string;
    if (c === '\\') {
      out += escape(body[i + 1] ?? '\\', true);
      i += 2;
    } else if (c === '[' && body[i + 1] === ':') {
      const close = body.indexOf(':]', i + 2);
      const name = body.slice(i + 2, close);
      const range = POSIX[name];
      if (range === undefined) throw new Re2Error(`invalid character class range: \`[:${name}:]\``);
      out += range;
      i = close + 2;
    } else if (c === ']' && first) {
      out += '\\]';
      i++;
    } else if (c === '[' || c === '/' || c === '{' || c === '}' || c === '(' || c === ')' || c === '|') {
      out += `\\${c}`;
      i++;
    } else if (caseless && isLetter(c) && body[i + 1] === '-' && body[i + 2] !== undefined && isLetter(body[i + 2] as string)) {
      const to = body[i + 2] as string;
      out += `${c.toLowerCase()}-${to.toLowerCase()}${c.toUpperCase()}-${to.toUpperCase()}`;
      i += 3;
    } else {
      out += caseless ? fold(c, true) : c;
      i++;
    }
    first = false;
  }
  return `${out}]`;
}
