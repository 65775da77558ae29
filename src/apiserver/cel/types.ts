/**
 * The static types a CEL expression is compiled against: what each variable holds, and the size
 * bounds (`maxLength`, `maxItems`, `maxProperties`) the cost estimate multiplies by. A bound left
 * out means "as large as a request allows", exactly as kube-apiserver assumes for a schema without one.
 */

export type CelType =
  | { kind: 'dyn' }
  | { kind: 'bool' }
  | { kind: 'int' }
  | { kind: 'double' }
  | { kind: 'null' }
  | { kind: 'string'; maxLength?: number }
  | { kind: 'bytes'; maxLength?: number }
  | { kind: 'timestamp' }
  | { kind: 'duration' }
  /** `x-kubernetes-int-or-string`: an int or a string, told apart at run time with `type(v)`. */
  | { kind: 'intOrString'; maxLength?: number }
  | { kind: 'list'; items: CelType; maxItems?: number; listType?: 'atomic' | 'set' | 'map' }
  | { kind: 'map'; values: CelType; maxProperties?: number }
  /** An object with declared fields; fields not declared (kept by x-kubernetes-preserve-unknown-fields) are not accessible. */
  | { kind: 'object'; fields: Readonly<Record<string, CelType>>; maxProperties?: number }
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

/** The fewest bytes one value of `t` takes in JSON, used to bound an unbounded list or map. */
export function minSerializedSize(t: CelType): number {
  switch (t.kind) {
    case 'bool':
      return 4;
    case 'int':
    case 'double':
      return 1;
    case 'string':
    case 'bytes':
    case 'timestamp':
    case 'duration':
    case 'list':
    case 'map':
    case 'object':
      return 2;
    default:
      return 1;
  }
}

/** The largest number of elements a list or map of `t` can have (declared, or estimated from the request size). */
export function maxElements(t: CelType): number {
  if (t.kind === 'list') return t.maxItems ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(t.items) + 1));
  if (t.kind === 'map') return t.maxProperties ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(t.values) + 4));
  if (t.kind === 'object') return t.maxProperties ?? Object.keys(t.fields).length;
  return 1;
}

/** The longest a string or bytes value of `t` can be (declared, or estimated from the request size). */
export function maxLength(t: CelType): number {
  if (t.kind === 'string' || t.kind === 'bytes' || t.kind === 'intOrString') return t.maxLength ?? MAX_REQUEST_SIZE_BYTES - 2;
  if (t.kind === 'dyn') return MAX_REQUEST_SIZE_BYTES - 2;
  if (t.kind === 'list' || t.kind === 'map') return maxElements(t);
  return 1;
}
