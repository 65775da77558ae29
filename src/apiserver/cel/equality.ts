/**
 * CEL equality for the values rules see (JSON-shaped data converted to CEL): numbers compare
 * across int and double, lists element-wise, maps key-wise, timestamps by instant, library values
 * (IP, CIDR, quantity, URL) through their own `equals`.
 */

interface WithEquals {
  equals(other: unknown): boolean;
}

const hasEquals = (x: unknown): x is WithEquals => typeof x === 'object' && x !== null && typeof (x as WithEquals).equals === 'function';

export function celEquals(a: unknown, b: unknown): boolean {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) return a == b;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  if (hasEquals(a)) return a.equals(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && celEquals((a as never)[k], (b as never)[k]));
  }
  return a === b;
}
