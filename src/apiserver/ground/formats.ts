/**
 * The string formats the server checks: the OpenAPI `format`s it applies to custom resources (the
 * ones controllers actually rely on; unknown formats are accepted, as there; integer formats bound
 * the range), whose date, date-time, base64 and UUID checks CEL's format library shares, so a value
 * a schema accepts is one a rule's `format.date()` accepts too.
 */
import { isIP, isIPv4, isIPv6 } from 'node:net';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;
const HOSTNAME = /^(?=.{1,253}$)[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const DURATION = /^[-+]?([0-9]*(\.[0-9]*)?(ns|us|µs|ms|s|m|h))+$/;
const MAC = /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/;

const validDate = (y: string, m: string, d: string): boolean => {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
};

/** A calendar date, `YYYY-MM-DD`, that exists (no 30 February). */
export function isDate(s: string): boolean {
  const m = DATE.exec(s);
  return m !== null && validDate(m[1] as string, m[2] as string, m[3] as string);
}

/** An RFC 3339 date-time whose date exists and whose clock reading is in range. */
export function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  return (
    m !== null && validDate(m[1] as string, m[2] as string, m[3] as string) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 61
  );
}

/** Standard, padded base64. */
export const isBase64 = (s: string): boolean => BASE64.test(s);

/** A UUID: 32 hex digits, in the 8-4-4-4-12 groups or without the dashes. */
export const isUuid = (s: string): boolean => UUID.test(s);

const STRING_FORMATS: Readonly<Record<string, (s: string) => boolean>> = {
  date: isDate,
  'date-time': isDateTime,
  byte: isBase64,
  uuid: isUuid,
  hostname: (s) => HOSTNAME.test(s),
  email: (s) => EMAIL.test(s),
  ipv4: (s) => isIPv4(s),
  ipv6: (s) => isIPv6(s),
  cidr: (s) => {
    const [ip, bits, extra] = s.split('/');
    if (ip === undefined || bits === undefined || extra !== undefined || !/^\d+$/.test(bits)) return false;
    const kind = isIP(ip);
    return kind !== 0 && Number(bits) <= (kind === 4 ? 32 : 128);
  },
  duration: (s) => DURATION.test(s),
  mac: (s) => MAC.test(s),
};

/** True when the string satisfies `format` (or the format is not one the server checks). */
export function stringMatchesFormat(value: string, format: string): boolean {
  const check = STRING_FORMATS[format];
  return check === undefined || check(value);
}

const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** True when the number fits `format` (int32/int64 bound the range; other formats are not checked). */
export function numberMatchesFormat(value: number, format: string): boolean {
  const range = INTEGER_RANGES[format];
  return range === undefined || (Number.isInteger(value) && value >= range[0] && value <= range[1]);
}
