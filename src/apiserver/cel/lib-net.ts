/**
 * The Kubernetes IP and CIDR libraries: `ip(s)`, `isIP`, `ip.isCanonical`, `cidr(s)`, `isCIDR`, and their queries.
 * As in Kubernetes, IPv4-mapped IPv6 addresses and zones are refused, and a CIDR keeps the address
 * it was written with (`masked()` clears the host bits).
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from './errors.js';
import { registerNamespace } from './namespace.js';

/** An address as a bigint with its width (32 or 128 bits). */
export class IpAddress {
  constructor(
    readonly bits: bigint,
    readonly width: 32 | 128,
  ) {}
  equals(o: unknown): boolean {
    return o instanceof IpAddress && o.bits === this.bits && o.width === this.width;
  }
  toString(): string {
    if (this.width === 32) return [24n, 16n, 8n, 0n].map((s) => String((this.bits >> s) & 255n)).join('.');
    const groups = Array.from({ length: 8 }, (_, i) => ((this.bits >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
    // The longest run of two or more zero groups collapses to `::`, as Go and RFC 5952 write it.
    let best = { at: -1, len: 0 };
    for (let i = 0; i < 8;) {
      let j = i;
      while (j < 8 && groups[j] === '0') j++;
      if (j - i > best.len && j - i >= 2) best = { at: i, len: j - i };
      i = j === i ? i + 1 : j;
    }
    if (best.at < 0) return groups.join(':');
    return `${groups.slice(0, best.at).join(':')}::${groups.slice(best.at + best.len).join(':')}`;
  }
}

export class Cidr {
  constructor(
    readonly ip: IpAddress,
    readonly prefix: number,
  ) {}
  get mask(): bigint {
    const w = BigInt(this.ip.width);
    return ((1n << w) - 1n) ^ ((1n << (w - BigInt(this.prefix))) - 1n);
  }
  contains(ip: IpAddress): boolean {
    return ip.width === this.ip.width && (ip.bits & this.mask) === (this.ip.bits & this.mask);
  }
  equals(o: unknown): boolean {
    return o instanceof Cidr && o.prefix === this.prefix && o.ip.equals(this.ip);
  }
  toString(): string {
    return `${this.ip.toString()}/${this.prefix}`;
  }
}

export function parseIp(s: string): IpAddress | undefined {
  if (isIPv4(s)) {
    const parts = s.split('.');
    if (parts.some((p) => p.length > 1 && p.startsWith('0'))) return undefined;
    return new IpAddress(
      parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n),
      32,
    );
  }
  if (!isIPv6(s) || s.includes('%') || s.includes('.')) return undefined;
  const [head = '', tail] = s.split('::');
  const h = head === '' ? [] : head.split(':');
  const t = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return new IpAddress(
    groups.reduce((acc, g) => (acc << 16n) | BigInt(`0x${g}`), 0n),
    128,
  );
}

export function parseCidr(s: string): Cidr | undefined {
  const [addr = '', prefix, extra] = s.split('/');
  if (prefix === undefined || extra !== undefined || !/^\d{1,3}$/.test(prefix)) return undefined;
  const ip = parseIp(addr);
  if (ip === undefined || Number(prefix) > ip.width) return undefined;
  return new Cidr(ip, Number(prefix));
}

const inRange = (ip: IpAddress, cidr: string): boolean => parseCidr(cidr)!.contains(ip);

export function registerNet(env: Environment): void {
  env.registerType('net.IP', IpAddress);
  env.registerType('net.CIDR', Cidr);
  const ip = (s: string) => parseIp(s) ?? fail('IP Address', s);
  const cidr = (s: string) => parseCidr(s) ?? fail('CIDR', s);
  env.registerFunction('ip(string): net.IP', ip);
  env.registerFunction('isIP(string): bool', (s: string) => parseIp(s) !== undefined);
  env.registerFunction('string(net.IP): string', (a: IpAddress) => a.toString());
  env.registerFunction('net.IP.family(): int', (a: IpAddress) => (a.width === 32 ? 4n : 6n));
  env.registerFunction('net.IP.isUnspecified(): bool', (a: IpAddress) => a.bits === 0n);
  env.registerFunction('net.IP.isLoopback(): bool', (a: IpAddress) => (a.width === 32 ? inRange(a, '127.0.0.0/8') : a.bits === 1n));
  env.registerFunction('net.IP.isLinkLocalMulticast(): bool', (a: IpAddress) =>
    a.width === 32 ? inRange(a, '224.0.0.0/24') : inRange(a, 'ff02::/16'),
  );
  env.registerFunction('net.IP.isLinkLocalUnicast(): bool', (a: IpAddress) =>
    a.width === 32 ? inRange(a, '169.254.0.0/16') : inRange(a, 'fe80::/10'),
  );
  env.registerFunction('net.IP.isGlobalUnicast(): bool', (a: IpAddress) => {
    if (a.bits === 0n) return false;
    if (a.width === 32) {
      return !['127.0.0.0/8', '224.0.0.0/4', '169.254.0.0/16', '255.255.255.255/32'].some((c) => inRange(a, c));
    }
    return !['::1/128', 'ff00::/8', 'fe80::/10'].some((c) => inRange(a, c));
  });
  env.registerOperator('net.IP == net.IP', (a: IpAddress, b: IpAddress) => a.equals(b));
  // Canonical is how Go prints the address back (lower-case hex, the longest zero run as `::`).
  const ipNamespace = registerNamespace(env, 'ip');
  env.registerFunction(`${ipNamespace}.isCanonical(string): bool`, (_: unknown, s: string) => ip(s).toString() === s);

  env.registerFunction('cidr(string): net.CIDR', cidr);
  env.registerFunction('isCIDR(string): bool', (s: string) => parseCidr(s) !== undefined);
  env.registerFunction('string(net.CIDR): string', (c: Cidr) => c.toString());
  env.registerFunction('net.CIDR.containsIP(net.IP): bool', (c: Cidr, a: IpAddress) => c.contains(a));
  env.registerFunction('net.CIDR.containsIP(string): bool', (c: Cidr, a: string) => c.contains(ip(a)));
  env.registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', (c: Cidr, o: Cidr) => o.prefix >= c.prefix && c.contains(o.ip));
  env.registerFunction('net.CIDR.containsCIDR(string): bool', (c: Cidr, s: string) => {
    const o = cidr(s);
    return o.prefix >= c.prefix && c.contains(o.ip);
  });
  env.registerFunction('net.CIDR.ip(): net.IP', (c: Cidr) => c.ip);
  env.registerFunction('net.CIDR.masked(): net.CIDR', (c: Cidr) => new Cidr(new IpAddress(c.ip.bits & c.mask, c.ip.width), c.prefix));
  env.registerFunction('net.CIDR.prefixLength(): int', (c: Cidr) => BigInt(c.prefix));
  env.registerOperator('net.CIDR == net.CIDR', (a: Cidr, b: Cidr) => a.equals(b));
}

function fail(what: string, s: string): never {
  throw celError(`${what} parse error during conversion from string: ${JSON.stringify(s)}`);
}
