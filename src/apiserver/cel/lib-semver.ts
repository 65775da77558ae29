/**
 * The Kubernetes semver library (1.33+): `semver(s)` and `isSemver(s)`, strict Semantic Versioning
 * 2.0 (`1.2.3`, `0.1.0-alpha.1+build`), or with `true` as a second argument normalized first (a
 * leading `v` dropped, missing minor and patch filled with 0, leading zeros removed); and
 * `major()`, `minor()`, `patch()`, `isLessThan`, `isGreaterThan`, `compareTo` by semver precedence
 * (build metadata ignored, a pre-release before its release).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from './errors.js';

const NUMBER = /^(0|[1-9][0-9]*)$/;
const IDENTIFIER = /^[0-9A-Za-z-]+$/;

export class Semver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly string[],
  ) {}

  compare(o: Semver): number {
    for (const [a, b] of [
      [this.major, o.major],
      [this.minor, o.minor],
      [this.patch, o.patch],
    ] as const) {
      if (a !== b) return a < b ? -1 : 1;
    }
    if (this.pre.length === 0 || o.pre.length === 0) return Math.sign(o.pre.length - this.pre.length);
    for (let i = 0; i < Math.min(this.pre.length, o.pre.length); i++) {
      const c = comparePre(this.pre[i]!, o.pre[i]!);
      if (c !== 0) return c;
    }
    return Math.sign(this.pre.length - o.pre.length);
  }

  equals(o: unknown): boolean {
    return o instanceof Semver && this.compare(o) === 0;
  }
}

/** Numeric identifiers compare as numbers and before alphanumeric ones, which compare as text. */
function comparePre(a: string, b: string): number {
  const an = NUMBER.test(a);
  const bn = NUMBER.test(b);
  if (an && bn) return Math.sign(Number(BigInt(a) - BigInt(b)));
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The version `s` names, or the reason it does not name one (in the words of the Go semver package). */
export function parseSemver(s: string): Semver | string {
  const parts = s.split('.');
  if (parts.length < 3) return 'No Major.Minor.Patch elements found';
  let patch = parts.slice(2).join('.');
  const plus = patch.indexOf('+');
  const build = plus < 0 ? [] : patch.slice(plus + 1).split('.');
  if (plus >= 0) patch = patch.slice(0, plus);
  const dash = patch.indexOf('-');
  const pre = dash < 0 ? [] : patch.slice(dash + 1).split('.');
  if (dash >= 0) patch = patch.slice(0, dash);
  const numbers = [parts[0]!, parts[1]!, patch];
  for (const [i, p] of numbers.entries()) {
    const name = ['Major', 'Minor', 'Patch'][i]!;
    if (!/^[0-9]+$/.test(p)) return `Invalid character(s) found in ${name.toLowerCase()} number ${JSON.stringify(p)}`;
    if (!NUMBER.test(p)) return `${name} number must not contain leading zeroes ${JSON.stringify(p)}`;
  }
  for (const id of pre) {
    if (!IDENTIFIER.test(id)) return `Invalid character(s) found in prerelease ${JSON.stringify(id)}`;
    if (/^[0-9]+$/.test(id) && !NUMBER.test(id)) return `Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(id)}`;
  }
  for (const id of build) if (!IDENTIFIER.test(id)) return `Invalid character(s) found in build meta data ${JSON.stringify(id)}`;
  return new Semver(BigInt(numbers[0]!), BigInt(numbers[1]!), BigInt(numbers[2]!), pre);
}

/** Kubernetes' normalization: no `v` prefix, no leading zeros, missing minor and patch as 0. */
function normalized(s: string): string {
  const parts = s.replace(/^v/, '').split('.');
  const head = parts.slice(0, 2);
  const rest = parts.slice(2).join('.');
  const all = parts.length > 2 ? [...head, rest] : head;
  const trimmed = all.map((p) => (p.length > 1 ? p.replace(/^0+/, '').replace(/^(?![0-9])/, '0') : p));
  if (trimmed.length < 3) {
    if (/[+-]/.test(trimmed[trimmed.length - 1]!)) return '';
    while (trimmed.length < 3) trimmed.push('0');
  }
  return trimmed.join('.');
}

function semverOf(s: string, normalize: boolean): Semver {
  const v = parseSemver(normalize ? normalized(s) : s);
  if (typeof v === 'string')
    throw celError(normalize && normalized(s) === '' ? 'short version cannot contain PreRelease/Build meta data' : v);
  return v;
}

export function registerSemver(env: Environment): void {
  env.registerType('kubernetes.Semver', Semver);
  env.registerFunction('semver(string): kubernetes.Semver', (s: string) => semverOf(s, false));
  env.registerFunction('semver(string, bool): kubernetes.Semver', (s: string, n: boolean) => semverOf(s, n));
  env.registerFunction('isSemver(string): bool', (s: string) => typeof parseSemver(s) !== 'string');
  env.registerFunction('isSemver(string, bool): bool', (s: string, n: boolean) => typeof parseSemver(n ? normalized(s) : s) !== 'string');
  env.registerFunction('kubernetes.Semver.major(): int', (v: Semver) => v.major);
  env.registerFunction('kubernetes.Semver.minor(): int', (v: Semver) => v.minor);
  env.registerFunction('kubernetes.Semver.patch(): int', (v: Semver) => v.patch);
  env.registerFunction('kubernetes.Semver.isGreaterThan(kubernetes.Semver): bool', (a: Semver, b: Semver) => a.compare(b) > 0);
  env.registerFunction('kubernetes.Semver.isLessThan(kubernetes.Semver): bool', (a: Semver, b: Semver) => a.compare(b) < 0);
  env.registerFunction('kubernetes.Semver.compareTo(kubernetes.Semver): int', (a: Semver, b: Semver) => BigInt(a.compare(b)));
  env.registerOperator('kubernetes.Semver == kubernetes.Semver', (a: Semver, b: Semver) => a.equals(b));
}
