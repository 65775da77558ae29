/**
 * The Kubernetes strings library (cel-go's strings extension at version 2, which kube-apiserver
 * enables from 1.29) on top of the engine's own `startsWith`, `indexOf`, `split`, `lowerAscii`,
 * `trim`, …: `charAt`, `replace` and `strings.quote` (`format` is in lib-format.ts). Not `reverse`:
 * that came with version 3, which no Kubernetes enables. Indices count code points, as in CEL.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from './errors.js';
import { registerNamespace } from './namespace.js';

const codePoints = (s: string): string[] => [...s];

export function registerStrings(env: Environment): void {
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const chars = codePoints(s);
    if (i < 0n || i > BigInt(chars.length)) throw celError(`index out of range: ${i}`);
    return chars[Number(i)] ?? '';
  });
  env.registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => s.split(from).join(to));
  env.registerFunction('string.replace(string, string, int): string', (s: string, from: string, to: string, n: bigint) => {
    if (n < 0n) return s.split(from).join(to);
    const parts = s.split(from);
    const head = parts.slice(0, Number(n) + 1).join(to);
    return parts.length > Number(n) + 1 ? [head, ...parts.slice(Number(n) + 1)].join(from) : head;
  });
  const strings = registerNamespace(env, 'strings');
  env.registerFunction(`${strings}.quote(string): string`, (_: unknown, s: string) => JSON.stringify(s));
}
