/**
 * The Kubernetes regex library: `find` and `findAll` (with an optional limit). Patterns are RE2 in
 * Kubernetes; they are run here as JavaScript regular expressions in Unicode mode, which agree
 * with RE2 on the patterns rules use (character classes, anchors, repetition, groups).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from './errors.js';

export function compilePattern(pattern: string, flags = 'u'): RegExp {
  try {
    return new RegExp(pattern, flags);
  } catch (e) {
    throw celError(`error parsing regexp: ${(e as Error).message}`);
  }
}

export function registerRegex(env: Environment): void {
  env.registerFunction('string.find(string): string', (s: string, p: string) => compilePattern(p).exec(s)?.[0] ?? '');
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) =>
    [...s.matchAll(compilePattern(p, 'gu'))].map((m) => m[0]),
  );
  env.registerFunction('string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => {
    const all = [...s.matchAll(compilePattern(p, 'gu'))].map((m) => m[0]);
    return n < 0n ? all : all.slice(0, Number(n));
  });
}
