/**
 * The OpenAPI `format` checks the real server applies to custom resources (the ones controllers
 * actually rely on). Unknown formats are accepted, as there. Integer formats bound the range.
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

const STRING_FORMATS: Readonly<Record<string, (s: string) => boolean>> = {
  date: (s) => {
    const m = DATE.exec(s);
    return m !== null && validDate(m[1] as string, m[2] as string, m[3] as string);
  },
  'date-time': (s) => {
    const m = DATE_TIME.exec(s);
    return (
      m !== null && validDate(m[1] as string, m[2] as string, m[3] as string) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 61
    );
  },
  byte: (s) => BASE64.test(s),
  uuid: (s) => UUID.test(s),
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
