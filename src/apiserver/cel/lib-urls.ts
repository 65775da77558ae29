/**
 * The Kubernetes URLs library: `url(s)` / `isURL(s)` and the parts of a URL. Only absolute URLs
 * and absolute paths are accepted, as Go's `url.ParseRequestURI` accepts them.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from './errors.js';

export class CelUrl {
  constructor(
    readonly raw: string,
    readonly parsed: URL,
  ) {}
  equals(other: unknown): boolean {
    return other instanceof CelUrl && other.raw === this.raw;
  }
}

const BASE = 'http://relative.invalid';

function parseUrl(s: string): CelUrl | undefined {
  if (s.startsWith('/')) {
    try {
      return new CelUrl(s, new URL(s, BASE));
    } catch {
      return undefined;
    }
  }
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s)) return undefined;
  try {
    return new CelUrl(s, new URL(s));
  } catch {
    return undefined;
  }
}

/** The host as the URL was written: Node lower-cases it and drops default ports, Go keeps both. */
function hostOf(u: CelUrl): string {
  if (u.raw.startsWith('/')) return '';
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]*)/.exec(u.raw);
  return m?.[1] ?? '';
}

export function registerUrls(env: Environment): void {
  env.registerType('URL', CelUrl);
  env.registerFunction('url(string): URL', (s: string) => parseUrl(s) ?? fail(s));
  env.registerFunction('isURL(string): bool', (s: string) => parseUrl(s) !== undefined);
  env.registerFunction('URL.getScheme(): string', (u: CelUrl) => (u.raw.startsWith('/') ? '' : u.parsed.protocol.slice(0, -1)));
  env.registerFunction('URL.getHost(): string', (u: CelUrl) => hostOf(u));
  env.registerFunction('URL.getHostname(): string', (u: CelUrl) =>
    hostOf(u)
      .replace(/:\d*$/, '')
      .replace(/^\[(.*)\]$/, '$1'),
  );
  env.registerFunction('URL.getPort(): string', (u: CelUrl) => /:(\d*)$/.exec(hostOf(u).replace(/^\[.*\]/, ''))?.[1] ?? '');
  env.registerFunction('URL.getEscapedPath(): string', (u: CelUrl) => u.parsed.pathname);
  env.registerFunction('URL.getQuery(): map<string, list<string>>', (u: CelUrl) => {
    const out: Record<string, string[]> = {};
    for (const [k, v] of u.parsed.searchParams) (out[k] ??= []).push(v);
    return out;
  });
}

function fail(s: string): never {
  throw celError(`URL parse error during conversion from string: parse "${s}": invalid URI for request`);
}
