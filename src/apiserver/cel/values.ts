/**
 * JSON values as CEL sees them under their declared type: integers become `int` (bigint) and
 * numbers `double`; `date`/`date-time` strings become timestamps, `duration` strings durations and
 * `byte` strings bytes when the declaration says so; null-valued fields are absent (so `has()` is
 * false for them, as in Kubernetes); fields the declaration does not know are left out, and the
 * rest carry their CEL names (`namespace` is `__namespace__`).
 */
import type { CelType } from './types.js';
import { environmentFor } from './environment.js';
import { NEWEST_STORED } from './library-versions.js';
import { celFieldName } from './field-names.js';

function toDuration(s: string): unknown {
  const { engine } = environmentFor(NEWEST_STORED, ['s']);
  return engine.evaluate('duration(s)', { s });
}

/** `value` (plain JSON) converted to the CEL value `type` declares. */
export function toCelValue(value: unknown, type: CelType): unknown {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
    case 'double':
      return value;
    case 'intOrString':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
    case 'timestamp':
      return typeof value === 'string' ? new Date(value) : value;
    case 'duration':
      return typeof value === 'string' ? toDuration(value) : value;
    case 'bytes':
      return typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64')) : value;
    case 'list':
      return Array.isArray(value) ? value.map((x) => toCelValue(x, type.items)) : value;
    case 'map':
      return isObject(value) ? mapEntries(value, (k) => [k, type.values]) : value;
    case 'object':
      return isObject(value) ? mapEntries(value, (k) => fieldOf(type.fields, k)) : value;
    case 'dyn':
      return untyped(value);
    default:
      return value;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fieldOf(fields: Readonly<Record<string, CelType>>, key: string): [string, CelType] | undefined {
  const name = celFieldName(key);
  const t = name === undefined ? undefined : fields[name];
  return t === undefined ? undefined : [name!, t];
}

function mapEntries(value: Record<string, unknown>, entryOf: (key: string) => [string, CelType] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const entry = entryOf(k);
    if (entry === undefined || v === null || v === undefined) continue;
    out[entry[0]] = toCelValue(v, entry[1]);
  }
  return out;
}

/** A value without a declared type: integers as int, the rest as JSON reads. */
function untyped(value: unknown): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (Array.isArray(value)) return value.map(untyped);
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = untyped(v);
    return out;
  }
  return value;
}

/** `optional.of(value)`: an optional CEL value (`oldSelf` under `optionalOldSelf`). */
export const celOptionalOf = (value: unknown): unknown => environmentFor(NEWEST_STORED, []).optional.of(value);

/** `optional.none()`: an empty optional (`oldSelf` under `optionalOldSelf` when there is no old value). */
export const celOptionalNone = (): unknown => environmentFor(NEWEST_STORED, []).optional.none();
