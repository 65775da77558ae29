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

/** The name a property has in CEL, or undefined when CEL cannot reach it. */
export function celFieldName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ACCESSIBLE.test(name)) return undefined;
  return name.replace(/__/g, '__underscores__').replace(/\./g, '__dot__').replace(/-/g, '__dash__').replace(/\//g, '__slash__');
}
