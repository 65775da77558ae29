/**
 * How schema property names appear in CEL: names that are CEL keywords or hold `_`-runs, `.`, `-`
 * or `/` are escaped (`namespace` → `__namespace__`, `x-prop` → `x__dash__prop`), and names with
 * other characters cannot be reached at all, as in Kubernetes.
 */

const RESERVED = new Set([
  'as',
  'break',
  'const',
  'continue',
  'else',
  'false',
  'for',
  'function',
  'if',
  'import',
  'in',
  'let',
  'loop',
  'package',
  'namespace',
  'null',
  'return',
  'true',
  'var',
  'void',
  'while',
]);
const ACCESSIBLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/** Names seen so far: every object converted for a rule asks again for the same few names. */
const known = new Map<string, string | undefined>();

/** The name a property has in CEL, or undefined when CEL cannot reach it. */
export function celFieldName(name: string): string | undefined {
  if (known.has(name)) return known.get(name);
  const escaped = escape(name);
  if (known.size < 10_000) known.set(name, escaped);
  return escaped;
}

function escape(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ACCESSIBLE.test(name)) return undefined;
  return name.replace(/__/g, '__underscores__').replace(/\./g, '__dot__').replace(/-/g, '__dash__').replace(/\//g, '__slash__');
}
