/**
 * The one CEL environment every Kubernetes expression is compiled in: the engine's standard
 * library, macros and optional types, plus the Kubernetes libraries (strings, lists, regex, URLs,
 * quantity, IP/CIDR, format, sets, semver, authz, and the JSON Patch key escape of mutating policies).
 * Built once per variable set, since building is the expensive part;
 * variables are declared `dyn` (or `optional<dyn>`) to the engine, and the declared types are enforced by the cost
 * estimate's own type walk (field names, sizes); an authorizer variable is declared as one, so the
 * engine checks every call on it.
 */
import { Environment } from '@marcbachmann/cel-js';
import { registerStrings } from './lib-strings.js';
import { registerLists } from './lib-lists.js';
import { registerRegex } from './lib-regex.js';
import { registerUrls } from './lib-urls.js';
import { registerQuantity } from './lib-quantity.js';
import { registerNet } from './lib-net.js';
import { registerFormat } from './lib-format.js';
import { registerJsonPatch } from './lib-jsonpatch.js';
import { registerSets } from './lib-sets.js';
import { registerSemver } from './lib-semver.js';
import { AUTHORIZER_TYPE, registerAuthz } from './lib-authz.js';
import { optionalFactory, registerOptionalMacros, type OptionalFactory } from './optional.js';

export interface CelEnvironment {
  engine: Environment;
  optional: OptionalFactory;
}

function build(variables: readonly string[], optionals: readonly string[], authorizers: readonly string[]): CelEnvironment {
  const engine = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  const optional = optionalFactory(engine);
  registerStrings(engine);
  registerLists(engine);
  registerRegex(engine);
  registerUrls(engine);
  registerQuantity(engine);
  registerNet(engine);
  registerFormat(engine, optional);
  registerJsonPatch(engine);
  registerSets(engine);
  registerSemver(engine);
  registerAuthz(engine);
  registerOptionalMacros(engine, optional);
  for (const v of variables) engine.registerVariable(v, 'dyn');
  // An optional variable is declared as one, or the engine cannot type what `.value()` returns.
  for (const v of optionals) engine.registerVariable(v, 'optional<dyn>');
  for (const v of authorizers) engine.registerVariable(v, AUTHORIZER_TYPE);
  return { engine, optional };
}

const environments = new Map<string, CelEnvironment>();

/**
 * The environment declaring exactly `variables` (and `optionals` as optional values, `authorizers`
 * as authz library authorizers), built on first use and kept.
 */
export function environmentFor(
  variables: readonly string[],
  optionals: readonly string[] = [],
  authorizers: readonly string[] = [],
): CelEnvironment {
  const key = [variables, optionals, authorizers].map((vs) => [...vs].sort().join(',')).join(';');
  let env = environments.get(key);
  if (env === undefined) {
    env = build([...variables].sort(), [...optionals].sort(), [...authorizers].sort());
    environments.set(key, env);
  }
  return env;
}
