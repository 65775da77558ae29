/**
 * What one call costs, before its arguments, in the estimate kube-apiserver makes: the Kubernetes
 * libraries' estimator (k8s.io/apiserver/pkg/cel/library/cost.go) first, then cel-go's own cases
 * (checker/cost.go and the sets extension) for string scans, regexes, concatenation, equality and
 * `in`; every other call costs 1, conversions (`int(…)`, `string(…)`, …) included. Undefined means
 * "no rule of its own": the caller charges 1. Each result size is given where the libraries give one.
 */
import { add, fixed, multiply, ONE, times, type Range } from './cost-range.js';
import { CHECK_COST } from './lib-authz.js';

/** What the estimate knows of one operand of a call. */
export interface Operand {
  /** Its static kind (`string`, `list`, …, or an opaque library type such as `quantity`). */
  readonly kind: string;
  /** Its size range (characters, bytes or elements). */
  readonly size: Range;
  /** Its value, when it is a literal. */
  readonly literal: unknown;
  /** The kind and declared size of its elements, when it is a list (kube's `listElementNode`). */
  readonly element: { kind: string; size: Range } | undefined;
}

export interface CallEstimate {
  cost: Range;
  resultSize?: Range;
}

const TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;
/** The longest regex a named format (`format.dns1123Label()`, …) validates with. */
const MAX_NAME_FORMAT_REGEX_SIZE = 128;
const MAX_FORMAT_SIZE = 64;
const LIST_CREATE = 10;
const STRUCT_CREATE = 40;

const FIXED_ONE = new Set([
  'serviceAccount',
  'path',
  'group',
  'resource',
  'subresource',
  'namespace',
  'name',
  'allowed',
  'reason',
  'error',
  'errored',
  'masked',
  'prefixLength',
  'family',
  'isUnspecified',
  'isLoopback',
  'isLinkLocalMulticast',
  'isLinkLocalUnicast',
  'isGlobalUnicast',
  'format.named',
  'sign',
  'asInteger',
  'isInteger',
  'asApproximateFloat',
  'isGreaterThan',
  'isLessThan',
  'compareTo',
  'add',
  'sub',
  'major',
  'minor',
  'patch',
  'getScheme',
  'getHostname',
  'getHost',
  'getPort',
  'getEscapedPath',
  'getQuery',
]);

/** Opaque library types whose equality costs 1. */
const UNIT_EQUALITY = new Set(['quantity', 'ip', 'cidr', 'semver', 'authorizer']);

/** A label or field selector: parsed once, then a list of requirements about half its length. */
function selectorCost(length: Range): Range {
  const requirements = times(length, 0.5);
  return add(add(fixed(LIST_CREATE), times(length, TRAVERSAL)), times(requirements, LIST_CREATE + STRUCT_CREATE));
}

/** The Kubernetes libraries' estimate for `name`, or undefined when they have none. */
function kubernetesCall(name: string, target: Operand | undefined, args: readonly Operand[]): CallEstimate | undefined {
  if (FIXED_ONE.has(name)) return { cost: ONE };
  const arg0 = args[0];
  switch (name) {
    case 'check':
      return { cost: fixed(CHECK_COST) };
    case 'fieldSelector':
    case 'labelSelector':
      return args.length === 1 && arg0 !== undefined ? { cost: selectorCost(arg0.size) } : undefined;
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf':
    case 'includes': {
      if (target === undefined) return undefined;
      const el = target.element;
      if (el !== undefined) {
        const perElement = el.kind === 'string' || el.kind === 'bytes' ? add(ONE, times(el.size, TRAVERSAL)) : ONE;
        return { cost: multiply(target.size, perElement) };
      }
      return { cost: times(target.size, TRAVERSAL) };
    }
    case 'url':
    case 'jsonpatch.escapeKey':
      return args.length === 1 && arg0 !== undefined ? { cost: times(arg0.size, TRAVERSAL), resultSize: arg0.size } : undefined;
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      return target === undefined ? undefined : { cost: times(target.size, TRAVERSAL), resultSize: target.size };
    case 'replace':
      return target === undefined || args.length < 2 ? undefined : replace(target.size, args[0]!.size, args[1]!.size);
    case 'split': {
      if (target === undefined) return undefined;
      const limit = args[1]?.literal;
      const max = typeof limit === 'bigint' ? Number(limit) : target.size.max;
      return { cost: times(target.size, 2 * TRAVERSAL), resultSize: { min: 0, max } };
    }
    case 'join': {
      if (target === undefined) return undefined;
      let size: Range = target.element === undefined ? fixed(0) : multiply(target.size, target.element.size);
      if (arg0 !== undefined) {
        const separators = { min: Math.max(0, target.size.min - 1), max: Math.max(0, target.size.max - 1) };
        size = add(size, multiply(arg0.size, separators));
      }
      return { cost: times(size, TRAVERSAL), resultSize: size };
    }
    case 'find':
    case 'findAll': {
      if (target === undefined || arg0 === undefined) return undefined;
      const str = times(add(target.size, ONE), TRAVERSAL);
      return { cost: multiply(str, times(arg0.size, REGEX_LENGTH)), resultSize: { min: 0, max: target.size.max } };
    }
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
    case 'semver':
    case 'isSemver':
      return arg0 === undefined ? undefined : { cost: times(arg0.size, TRAVERSAL) };
    case 'ip':
      if (target !== undefined && target.kind === 'cidr') return { cost: ONE };
      return arg0 === undefined ? undefined : { cost: times(arg0.size, TRAVERSAL) };
    case 'ip.isCanonical':
      return arg0 === undefined ? undefined : { cost: times(arg0.size, 2 * TRAVERSAL) };
    case 'containsIP':
    case 'containsCIDR': {
      if (arg0 === undefined) return undefined;
      const ipSize: Range = { min: 4, max: 16 };
      let cost = times(add(ipSize, ipSize), TRAVERSAL);
      if (name === 'containsCIDR') cost = add(add(cost, times(ipSize, TRAVERSAL)), ONE);
      if (arg0.kind === 'string') cost = add(cost, times(arg0.size, TRAVERSAL));
      return { cost };
    }
    case 'validate':
      return arg0 === undefined ? undefined : { cost: times(times(arg0.size, TRAVERSAL), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_LENGTH) };
    default:
      return undefined;
  }
}

/** kube's `replace`: twice a scan of the subject; the result as long as every match replaced allows. */
function replace(size: Range, toReplace: Range, replaceWith: Range): CallEstimate {
  let countMax: number;
  let retainedMax = 0;
  if (toReplace.min === 0) {
    countMax = size.max < 2 ** 64 ? size.max + 1 : size.max;
    retainedMax = size.max;
  } else if (replaceWith.max <= toReplace.min) {
    countMax = 0;
    retainedMax = size.max;
  } else countMax = Math.ceil(size.max / toReplace.min);
  let countMin: number;
  let retainedMin = 0;
  if (toReplace.max === 0) {
    countMin = size.min < 2 ** 64 ? size.min + 1 : size.min;
    retainedMin = size.min;
  } else if (toReplace.max <= replaceWith.min) {
    countMin = 0;
    retainedMin = size.min;
  } else countMin = Math.ceil(size.min / toReplace.max);
  const resultSize = add(multiply({ min: countMin, max: countMax }, replaceWith), { min: retainedMin, max: retainedMax });
  return { cost: times(size, 2 * TRAVERSAL), resultSize };
}

/** cel-go's own estimate for the operators and standard functions that scan, or undefined (then 1). */
function celCall(name: string, target: Operand | undefined, args: readonly Operand[]): CallEstimate | undefined {
  const [a, b] = args;
  switch (name) {
    case 'format':
      return target === undefined ? undefined : { cost: times(target.size, TRAVERSAL) };
    case 'bytes':
      return a?.kind === 'string' ? { cost: times(a.size, TRAVERSAL), resultSize: { min: a.size.min, max: a.size.max * 4 } } : undefined;
    case 'string':
      return a?.kind === 'bytes'
        ? { cost: times(a.size, TRAVERSAL), resultSize: { min: Math.floor(a.size.min / 4), max: a.size.max } }
        : undefined;
    case 'strings.quote':
      return a === undefined ? undefined : { cost: times(a.size, TRAVERSAL), resultSize: { min: a.size.min + 2, max: a.size.max * 2 + 2 } };
    case 'startsWith':
    case 'endsWith':
      return target !== undefined && a !== undefined && target.kind !== 'list' ? { cost: times(a.size, TRAVERSAL) } : undefined;
    case 'matches':
      if (target !== undefined && a !== undefined) {
        return { cost: multiply(times(add(target.size, ONE), TRAVERSAL), times(a.size, REGEX_LENGTH)) };
      }
      return undefined;
    case 'contains':
      return target !== undefined && a !== undefined
        ? { cost: multiply(times(target.size, TRAVERSAL), times(a.size, TRAVERSAL)) }
        : undefined;
    case 'sets.contains':
    case 'sets.intersects':
    case 'sets.equivalent':
      return a !== undefined && b !== undefined
        ? { cost: add(times(multiply(a.size, b.size), name === 'sets.equivalent' ? 2 : 1), ONE) }
        : undefined;
    default:
      return undefined;
  }
}

/** The cost of calling `name` (not counting its target and arguments), and its result's size when known. */
export function callEstimate(name: string, target: Operand | undefined, args: readonly Operand[]): CallEstimate {
  // The sets extension's own estimators run before the Kubernetes estimator, as cel-go orders them.
  if (name.startsWith('sets.')) return celCall(name, target, args) ?? { cost: ONE };
  return kubernetesCall(name, target, args) ?? celCall(name, target, args) ?? { cost: ONE };
}

/** kube's equality of two library values of one type (a quantity, an IP, …), or undefined for cel-go's. */
export function libraryEqualityCost(a: Operand, b: Operand): Range | undefined {
  if (a.kind !== b.kind) return undefined;
  if (UNIT_EQUALITY.has(a.kind)) return ONE;
  if (a.kind === 'format') return times({ min: 1, max: MAX_FORMAT_SIZE }, TRAVERSAL);
  if (a.kind === 'url') return times(ONE, TRAVERSAL);
  return undefined;
}

/** `==`/`!=`/ordering of sizeable values: a tenth of the shorter operand's size (cel-go's equality cost). */
export function comparisonCost(a: Range, b: Range): Range {
  const smallestMax = Math.min(a.max, b.max);
  return times({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, TRAVERSAL);
}

/** `+` of strings or bytes: a tenth of the result's size. */
export const concatenationCost = (size: Range): Range => times(size, TRAVERSAL);
