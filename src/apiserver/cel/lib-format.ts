/**
 * The Kubernetes format library: `format.dns1123Label()` and the other named formats, or
 * `format.named(name)`, each with `validate(s)` returning `optional.none()` when `s` is valid and
 * the list of reasons (worded as Kubernetes' validators word them) when it is not. Also the
 * strings extension's `"%s".format([...])`, which is older and in every environment.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors, labelValueErrors, qualifiedNameErrors } from '../../meta/index.js';
import { isBase64, isDate, isDateTime, isUuid } from '../ground/index.js';
import { celError } from './errors.js';
import { registerNamespace } from './namespace.js';
import type { OptionalFactory } from './optional.js';

type Check = (s: string) => string[];

/** A check that fails with one fixed reason. */
const failsWith =
  (ok: (s: string) => boolean, reason: string): Check =>
  (s) =>
    ok(s) ? [] : [reason];

// The name and label formats are meta's validators, so a rule's reasons read as the server's own
// validation errors do; the others are the checks the schema applies to the same OpenAPI formats.
const FORMATS: Readonly<Record<string, Check>> = {
  dns1123Label: dns1123LabelErrors,
  dns1123Subdomain: dns1123SubdomainErrors,
  dns1035Label: dns1035LabelErrors,
  qualifiedName: qualifiedNameErrors,
  labelValue: labelValueErrors,
  uri: failsWith((s) => /^([a-zA-Z][a-zA-Z0-9+.-]*:|\/)/.test(s) && URL.canParse(s, 'http://relative.invalid'), 'invalid URI'),
  uuid: failsWith(isUuid, 'does not match the UUID format'),
  byte: failsWith(isBase64, 'invalid base64'),
  date: failsWith(isDate, 'invalid date'),
  datetime: failsWith(isDateTime, 'invalid datetime'),
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

/** The strings extension's `format`, in every environment; the format library when `withLibrary`. */
export function registerFormat(env: Environment, optional: OptionalFactory, withLibrary: boolean): void {
  env.registerFunction('string.format(list): string', (s: string, args: unknown[]) => formatString(s, args));
  if (!withLibrary) return;
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
}
