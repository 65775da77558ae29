/**
 * The static types a CEL expression is compiled against: what each variable holds, and the size
 * bounds (`maxLength`, `maxItems`, `maxProperties`) the cost estimate multiplies by. A bound left
 * out means "as large as a request allows", exactly as kube-apiserver assumes for a schema without one.
 * A string's `maxLength` is the size the estimate assumes, which for a schema's `maxLength` is four
 * times it (a character can take four bytes), as apiextensions reckons.
 */

export type CelType =
  | { kind: 'dyn' }
  | { kind: 'bool' }
  | { kind: 'int' }
  | { kind: 'double' }
  | { kind: 'null' }
  | { kind: 'string'; maxLength?: number }
  | { kind: 'bytes'; maxLength?: number }
  /** `maxLength` and `minSize` are the longest and shortest JSON forms: a date and a date-time differ. */
  | { kind: 'timestamp'; maxLength?: number; minSize?: number }
  | { kind: 'duration'; maxLength?: number }
  /** `x-kubernetes-int-or-string`: an int or a string, told apart at run time with `type(v)`. */
  | { kind: 'intOrString'; maxLength?: number }
  | { kind: 'list'; items: CelType; maxItems?: number; listType?: 'atomic' | 'set' | 'map' }
  | { kind: 'map'; values: CelType; maxProperties?: number }
  /** An object with declared fields; fields not declared (kept by x-kubernetes-preserve-unknown-fields) are not accessible. */
  | { kind: 'object'; fields: Readonly<Record<string, CelType>>; maxProperties?: number; minSize?: number }
  | { kind: 'optional'; of: CelType }
  /** The authz library's `authorizer` (admission expressions): checks for the request's user. */
  | { kind: 'authorizer' };

/** The variables an expression may use, with their types. */
export type Declarations = Readonly<Record<string, CelType>>;

export const DYN: CelType = { kind: 'dyn' };

/**
 * The request size kube-apiserver accepts (3 MiB); sizes without a declared bound are estimated
 * from it, so a rule over an unbounded list is costed as if the list filled a whole request.
 */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

/**
 * The fewest bytes one value of `t` takes in JSON (apiextensions' `MinSerializedSize`): what bounds
 * how many of them an unbounded list or map can hold, and how many times a rule on them can run.
 */
export function minSerializedSize(t: CelType): number {
  switch (t.kind) {
    case 'bool':
      return 4;
    case 'string':
    case 'bytes':
    case 'list':
    case 'map':
      return 2;
    case 'duration':
      return 3;
    case 'timestamp':
    case 'object':
      return t.minSize ?? (t.kind === 'timestamp' ? 12 : 2);
    default:
      return 1;
  }
}

/** The largest number of elements a list or map of `t` can have (declared, or estimated from the request size). */
export function maxElements(t: CelType): number {
  if (t.kind === 'list') return t.maxItems ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(t.items) + 1));
  if (t.kind === 'map') return t.maxProperties ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(t.values) + 6));
  if (t.kind === 'object') return t.maxProperties ?? Object.keys(t.fields).length;
  return 1;
}

/**
 * The size the cost estimate assumes for a value declared as `t` (apiextensions' `MaxElements`):
 * characters of a string, bytes, elements of a list or map; 0 for numbers, booleans and objects,
 * whose cost does not grow with a size; the request size for a string without a bound.
 */
export function declaredSize(t: CelType): number {
  switch (t.kind) {
    case 'string':
    case 'bytes':
    case 'intOrString':
      return t.maxLength ?? MAX_REQUEST_SIZE_BYTES - 2;
    case 'timestamp':
    case 'duration':
      return t.maxLength ?? 32;
    case 'list':
    case 'map':
      return maxElements(t);
    default:
      return 0;
  }
}
