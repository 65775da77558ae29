/**
 * The Kubernetes format library: `format.dns1123Label()` and the other named formats, or
 * `format.named(name)`, each with `validate(s)` returning `optional.none()` when `s` is valid and
 * the list of reasons (worded as Kubernetes' validators word them) when it is not. Also the
 * strings extension's `"%s".format([...])`.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from './errors.js';
import { registerNamespace } from './namespace.js';
import type { OptionalFactory } from './optional.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const tooLong = (n: number) => `must be no more than ${n} characters`;
const regexError = (what: string, example: string, re: RegExp) =>
  `a ${what} must consist of ${example} (regex used for validation is '${re.source.slice(1, -1)}')`;

type Check = (s: string) => string[];

const label =
  (re: RegExp, max: number, what: string): Check =>
  (s) => [...(s.length > max ? [tooLong(max)] : []), ...(re.test(s) ? [] : [what])];

const FORMATS: Readonly<Record<string, Check>> = {
  dns1123Label: label(
    DNS1123_LABEL,
    63,
    regexError(
      'lowercase RFC 1123 label',
      "lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
      DNS1123_LABEL,
    ),
  ),
  dns1123Subdomain: label(
    DNS1123_SUBDOMAIN,
    253,
    regexError(
      'lowercase RFC 1123 subdomain',
      "lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
      DNS1123_SUBDOMAIN,
    ),
  ),
  dns1035Label: label(
    DNS1035_LABEL,
    63,
    regexError(
      'DNS-1035 label',
      "lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
      DNS1035_LABEL,
    ),
  ),
  qualifiedName: (s) => {
    const [prefix, name, extra] = s.includes('/') ? s.split('/') : [undefined, s, undefined];
    if (extra !== undefined || name === undefined) {
      return [
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
      ];
    }
    const errs = prefix === undefined ? [] : FORMATS.dns1123Subdomain!(prefix).map((e) => `prefix part ${e}`);
    if (name.length === 0) errs.push('name part must be non-empty');
    else if (name.length > 63) errs.push(`name part ${tooLong(63)}`);
    if (name.length > 0 && !QUALIFIED_NAME.test(name)) {
      errs.push(
        "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
      );
    }
    return errs;
  },
  labelValue: label(
    LABEL_VALUE,
    63,
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  ),
  uri: (s) => (/^([a-zA-Z][a-zA-Z0-9+.-]*:|\/)/.test(s) && URL.canParse(s, 'http://relative.invalid') ? [] : ['invalid URI']),
  uuid: (s) => (UUID.test(s) ? [] : ['does not match the UUID format']),
  byte: (s) => (/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s) ? [] : ['invalid base64']),
  date: (s) => (/^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['invalid date']),
  datetime: (s) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['invalid datetime'],
};

/** One named format, the value `format.<name>()` returns. */
export class Format {
  constructor(
    readonly name: string,
    readonly check: Check,
  ) {}
}

/** `"%s and %d".format([a, b])`: the verbs of the strings extension, for the value kinds rules hold. */
function formatString(template: string, args: unknown[]): string {
  let i = 0;
  return template.replace(/%(\.\d+)?([sdfeboxX%])/g, (_, precision: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) throw celError(`index ${i} out of range`);
    const arg = args[i++];
    const digits = precision === undefined ? 6 : Number(precision.slice(1));
    switch (verb) {
      case 'd':
        if (typeof arg !== 'bigint')
          throw celError(`error during formatting: integer clause can only be used on integers, was given ${typeof arg}`);
        return String(arg);
      case 'f':
        return Number(arg).toFixed(digits);
      case 'e':
        return Number(arg)
          .toExponential(digits)
          .replace(/e([+-])(\d)$/, 'e$10$2');
      case 'b':
        return (arg as bigint).toString(2);
      case 'o':
        return (arg as bigint).toString(8);
      case 'x':
      case 'X': {
        const hex = typeof arg === 'string' ? Buffer.from(arg).toString('hex') : (arg as bigint).toString(16);
        return verb === 'X' ? hex.toUpperCase() : hex;
      }
      default:
        return typeof arg === 'string' ? arg : Array.isArray(arg) ? `[${arg.map(String).join(', ')}]` : String(arg);
    }
  });
}

export function registerFormat(env: Environment, optional: OptionalFactory): void {
  env.registerType('Format', Format);
  const ns = registerNamespace(env, 'format');
  for (const [name, check] of Object.entries(FORMATS)) {
    env.registerFunction(`${ns}.${name}(): Format`, () => new Format(name, check));
  }
  env.registerFunction(`${ns}.named(string): optional<Format>`, (_: unknown, name: string) => {
    const check = FORMATS[name];
    return check === undefined ? optional.none() : optional.of(new Format(name, check));
  });
  env.registerFunction('Format.validate(string): optional<list<string>>', (f: Format, s: string) => {
    const errs = f.check(s);
    return errs.length === 0 ? optional.none() : optional.of(errs);
  });
  env.registerFunction('string.format(list): string', (s: string, args: unknown[]) => formatString(s, args));
}
