/**
 * Which CEL libraries kube-apiserver offers at which Kubernetes minor, as its base environment
 * (k8s.io/apiserver pkg/cel/environment/base.go) declares them, and the two environments every
 * server keeps: a NEW expression (a rule or policy expression written now, or changed by an update)
 * compiles at the compatibility version, one minor below the server's, so a cluster rolled back one
 * minor still understands it; a STORED expression (unchanged on update, or evaluated) compiles with
 * everything the server's own minor knows. Invariant: a library is in an environment exactly when
 * its introducing minor is at most that environment's level.
 */
import { NEWEST_MINOR } from '../ground/index.js';

/** One library of the base environment, and the minor that introduced it. */
export interface CelLibraryVersion {
  /** The library, as the Kubernetes CEL documentation names it. */
  readonly name: string;
  /** The minor (of 1.x) that introduced it; 0 for the base every version has (kube writes 1.0). */
  readonly introducedMinor: number;
  /** The Go package it comes from. */
  readonly source: string;
  /** Functions, macros or types it brings, as a user writes them. */
  readonly functions: readonly string[];
}

const KUBE = 'k8s.io/apiserver/pkg/cel/library';
const CEL_EXT = 'github.com/google/cel-go/ext';
const CEL = 'github.com/google/cel-go/cel';

/**
 * From this minor a field named by a CEL keyword (`namespace`, `if`, …) can be selected by that name
 * (`self.namespace`) as well as escaped (`self.__namespace__`): kube's type provider recognizes it.
 */
export const KEYWORD_FIELD_NAMES_MINOR = 31;

/** The base environment's libraries (and the one language change, keyword field names), oldest first. */
export const CEL_LIBRARY_VERSIONS: readonly CelLibraryVersion[] = [
  { name: 'URLs', introducedMinor: 0, source: KUBE, functions: ['url', 'isURL', 'getScheme', 'getHost', 'getEscapedPath', 'getQuery'] },
  { name: 'regex', introducedMinor: 0, source: KUBE, functions: ['find', 'findAll'] },
  { name: 'lists', introducedMinor: 0, source: KUBE, functions: ['isSorted', 'sum', 'min', 'max', 'indexOf', 'lastIndexOf'] },
  { name: 'authz', introducedMinor: 27, source: KUBE, functions: ['authorizer.group', 'resource', 'check', 'allowed', 'serviceAccount'] },
  { name: 'optional types', introducedMinor: 28, source: CEL, functions: ['optional.of', 'optional.none', '.?field', 'orValue'] },
  { name: 'quantity', introducedMinor: 28, source: KUBE, functions: ['quantity', 'isQuantity', 'add', 'compareTo', 'asInteger'] },
  { name: 'strings (version 2)', introducedMinor: 29, source: CEL_EXT, functions: ['charAt', 'format', 'strings.quote', 'join'] },
  { name: 'sets', introducedMinor: 29, source: CEL_EXT, functions: ['sets.contains', 'sets.equivalent', 'sets.intersects'] },
  { name: 'IP', introducedMinor: 30, source: KUBE, functions: ['ip', 'isIP', 'ip.isCanonical', 'family', 'isLoopback'] },
  { name: 'CIDR', introducedMinor: 30, source: KUBE, functions: ['cidr', 'isCIDR', 'containsIP', 'containsCIDR', 'prefixLength'] },
  { name: 'format', introducedMinor: 31, source: KUBE, functions: ['format.dns1123Label', 'format.named', 'validate'] },
  { name: 'authz selectors', introducedMinor: 31, source: KUBE, functions: ['fieldSelector', 'labelSelector'] },
  {
    name: 'CEL keywords as field names',
    introducedMinor: KEYWORD_FIELD_NAMES_MINOR,
    source: 'k8s.io/apiserver/pkg/cel',
    functions: ['self.namespace (for self.__namespace__)'],
  },
  {
    name: 'two-variable comprehensions',
    introducedMinor: 32,
    source: CEL_EXT,
    functions: ['all(i, v, p)', 'exists(i, v, p)', 'existsOne', 'transformList', 'transformMap', 'transformMapEntry'],
  },
  { name: 'semver', introducedMinor: 33, source: KUBE, functions: ['semver', 'isSemver', 'major', 'isGreaterThan', 'compareTo'] },
  {
    name: 'lists (version 3)',
    introducedMinor: 34,
    source: CEL_EXT,
    functions: ['slice', 'flatten', 'distinct', 'reverse', 'sort', 'lists.range'],
  },
];

/** Which of the two environments an expression compiles in. */
export type ExpressionMode = 'new' | 'stored';

/** The environment an expression compiles in: the server's minor, and whether the expression is new. */
export interface CelEnvironmentVersion {
  readonly minor: number;
  readonly mode: ExpressionMode;
}

/** Where evaluation and offline checks compile: the stored environment of the newest minor, which has every library. */
export const NEWEST_STORED: CelEnvironmentVersion = { minor: NEWEST_MINOR, mode: 'stored' };

/** The minor whose libraries an environment has: the compatibility version (one below) for new expressions. */
export const libraryLevel = (v: CelEnvironmentVersion): number => (v.mode === 'new' ? v.minor - 1 : v.minor);
