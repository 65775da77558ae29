/**
 * The Kubernetes quantity library: `quantity("1.5Gi")`, `isQuantity`, and arithmetic and
 * comparison on quantities. A quantity is held exactly, as a fraction of two bigints, so
 * `quantity("0.1") + quantity("0.2") == quantity("0.3")` holds as it does in Go.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from './errors.js';

const BINARY: Readonly<Record<string, bigint>> = {
  Ki: 2n ** 10n,
  Mi: 2n ** 20n,
  Gi: 2n ** 30n,
  Ti: 2n ** 40n,
  Pi: 2n ** 50n,
  Ei: 2n ** 60n,
};
const DECIMAL: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));

export class Quantity {
  readonly num: bigint;
  readonly den: bigint;
  constructor(num: bigint, den: bigint) {
    const g = gcd(num, den) || 1n;
    this.num = num / g;
    this.den = den / g;
  }
  compare(o: Quantity): number {
    const d = this.num * o.den - o.num * this.den;
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }
  equals(o: unknown): boolean {
    return o instanceof Quantity && this.compare(o) === 0;
  }
  plus(o: Quantity): Quantity {
    return new Quantity(this.num * o.den + o.num * this.den, this.den * o.den);
  }
  negated(): Quantity {
    return new Quantity(-this.num, this.den);
  }
}

export function parseQuantity(s: string): Quantity | undefined {
  const m = QUANTITY.exec(s);
  if (m === null) return undefined;
  const [, sign, digits = '', suffix = ''] = m;
  const [whole = '', frac = ''] = digits.split('.');
  let num = BigInt((whole || '0') + frac) * (sign === '-' ? -1n : 1n);
  let den = 10n ** BigInt(frac.length);
  if (suffix in BINARY) num *= BINARY[suffix]!;
  else {
    const exp = suffix in DECIMAL ? DECIMAL[suffix]! : Number(suffix.slice(1));
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
  }
  return new Quantity(num, den);
}

const INT64_MAX = 2n ** 63n - 1n;
const ofInt = (i: bigint) => new Quantity(i, 1n);

export function registerQuantity(env: Environment): void {
  env.registerType('Quantity', Quantity);
  env.registerFunction('quantity(string): Quantity', (s: string) => parseQuantity(s) ?? fail(s));
  env.registerFunction('isQuantity(string): bool', (s: string) => parseQuantity(s) !== undefined);
  env.registerFunction('Quantity.isInteger(): bool', (q: Quantity) => q.den === 1n && q.num <= INT64_MAX && q.num >= -INT64_MAX - 1n);
  env.registerFunction('Quantity.asInteger(): int', (q: Quantity) => {
    if (q.den !== 1n || q.num > INT64_MAX || q.num < -INT64_MAX - 1n) throw celError('cannot convert value to integer');
    return q.num;
  });
  env.registerFunction('Quantity.asApproximateFloat(): double', (q: Quantity) => Number(q.num) / Number(q.den));
  env.registerFunction('Quantity.sign(): int', (q: Quantity) => BigInt(q.compare(ofInt(0n))));
  env.registerFunction('Quantity.add(Quantity): Quantity', (a: Quantity, b: Quantity) => a.plus(b));
  env.registerFunction('Quantity.add(int): Quantity', (a: Quantity, b: bigint) => a.plus(ofInt(b)));
  env.registerFunction('Quantity.sub(Quantity): Quantity', (a: Quantity, b: Quantity) => a.plus(b.negated()));
  env.registerFunction('Quantity.sub(int): Quantity', (a: Quantity, b: bigint) => a.plus(ofInt(-b)));
  env.registerFunction('Quantity.compareTo(Quantity): int', (a: Quantity, b: Quantity) => BigInt(a.compare(b)));
  env.registerFunction('Quantity.isLessThan(Quantity): bool', (a: Quantity, b: Quantity) => a.compare(b) < 0);
  env.registerFunction('Quantity.isGreaterThan(Quantity): bool', (a: Quantity, b: Quantity) => a.compare(b) > 0);
  env.registerOperator('Quantity == Quantity', (a: Quantity, b: Quantity) => a.equals(b));
}

function fail(s: string): never {
  throw celError(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${JSON.stringify(s)}`);
}
