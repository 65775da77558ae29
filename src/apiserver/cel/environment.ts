/**
 * The CEL environments Kubernetes expressions are compiled in: the engine's standard library,
 * macros and optional types, plus the Kubernetes libraries the environment's level has
 * (library-versions.ts: strings, lists, regex, URLs, quantity, IP/CIDR, format, sets, semver,
 * two-variable comprehensions, authz and its selectors), and, for a mutating policy's mutations only
 * (kube-apiserver's "patch types" environment), the JSON Patch key escape.
 * Building is the expensive part, so one is built per library set and variable set, and kept:
 * the new-expression environment of one minor is the stored one of the minor below, and a process
 * serving every version builds each set once. Variables are declared `dyn` (or `optional<dyn>`) to
 * the engine, and the declared types are enforced by the cost estimate's own type walk (field
 * names, sizes); an authorizer variable is declared as one, so the engine checks every call on it.
 */
import { Environment } from '@marcbachmann/cel-js';
import { registerStrings } from './lib-strings.js';
import { registerComprehensions } from './lib-comprehensions.js';
import { registerExtLists, registerLists } from './lib-lists.js';
import { registerRegex } from './lib-regex.js';
import { registerUrls } from './lib-urls.js';
import { registerQuantity } from './lib-quantity.js';
import { registerNet } from './lib-net.js';
import { registerFormat } from './lib-format.js';
import { registerJsonPatch } from './lib-jsonpatch.js';
import { registerSets } from './lib-sets.js';
import { registerSemver } from './lib-semver.js';
import { AUTHORIZER_TYPE, registerAuthz } from './lib-authz.js';
import { CEL_LIBRARY_VERSIONS, libraryLevel, type CelEnvironmentVersion } from './library-versions.js';
import { optionalFactory, registerOptionalMacros, type OptionalFactory } from './optional.js';

export interface CelEnvironment {
  engine: Environment;
  optional: OptionalFactory;
  /** The names of the functions declared (a call of another name is an undeclared reference). */
  functions: ReadonlySet<string>;
}

function build(
  libraries: ReadonlySet<string>,
  variables: readonly string[],
  optionals: readonly string[],
  authorizers: readonly string[],
  patchTypes: boolean,
): CelEnvironment {
  const engine = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  const optional = optionalFactory(engine);
  // The base every supported minor has (all introduced by 1.30, and a new expression compiles at 1.30 or later).
  registerStrings(engine);
  registerLists(engine);
  registerRegex(engine);
  registerUrls(engine);
  registerQuantity(engine);
  registerNet(engine);
  registerSets(engine);
  registerFormat(engine, optional, libraries.has('format'));
  registerAuthz(engine, libraries.has('authz selectors'));
  if (libraries.has('two-variable comprehensions')) registerComprehensions(engine);
  if (libraries.has('semver')) registerSemver(engine);
  if (libraries.has('lists (version 3)')) registerExtLists(engine);
  if (patchTypes) registerJsonPatch(engine);
  registerOptionalMacros(engine, optional);
  for (const v of variables) engine.registerVariable(v, 'dyn');
  // An optional variable is declared as one, or the engine cannot type what `.value()` returns.
  for (const v of optionals) engine.registerVariable(v, 'optional<dyn>');
  for (const v of authorizers) engine.registerVariable(v, AUTHORIZER_TYPE);
  return { engine, optional, functions: new Set(engine.getDefinitions().functions.map((f) => f.name)) };
}

const environments = new Map<string, CelEnvironment>();

/** What an environment has beyond its version's libraries and its variables. */
export interface EnvironmentExtras {
  /** A mutating policy's mutation expression: the JSON Patch library (`jsonpatch.escapeKey`). */
  patchTypes?: boolean;
}

/**
 * The environment of `version` declaring exactly `variables` (and `optionals` as optional values,
 * `authorizers` as authz library authorizers), with `extras`, built on first use and kept.
 */
export function environmentFor(
  version: CelEnvironmentVersion,
  variables: readonly string[],
  optionals: readonly string[] = [],
  authorizers: readonly string[] = [],
  extras: EnvironmentExtras = {},
): CelEnvironment {
  const level = libraryLevel(version);
  const libraries = new Set(CEL_LIBRARY_VERSIONS.filter((l) => l.introducedMinor <= level).map((l) => l.name));
  const patchTypes = extras.patchTypes === true;
  const key = [[...libraries], variables, optionals, authorizers, [String(patchTypes)]].map((vs) => [...vs].sort().join(',')).join(';');
  let env = environments.get(key);
  if (env === undefined) {
    env = build(libraries, [...variables].sort(), [...optionals].sort(), [...authorizers].sort(), patchTypes);
    environments.set(key, env);
  }
  return env;
}
