/**
 * The JSON Patch library mutating admission policies use: `jsonpatch.escapeKey(k)` escapes a key
 * for use in a JSON pointer (`~` → `~0`, then `/` → `~1`, as RFC 6901 orders it), so
 * `"/metadata/labels/" + jsonpatch.escapeKey("example.com/env")` addresses that label.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { registerNamespace } from './namespace.js';

export function registerJsonPatch(env: Environment): void {
  const jsonpatch = registerNamespace(env, 'jsonpatch');
  env.registerFunction(`${jsonpatch}.escapeKey(string): string`, (_: unknown, k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1'));
}
