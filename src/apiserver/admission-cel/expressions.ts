/**
 * The CEL environment of admission policy expressions: `object`, `oldObject`, `request`,
 * `namespaceObject`, `authorizer` (with `authorizer.requestResource`), `variables` (the policy's
 * named variables) and, when the policy has a paramKind, `params`; a mutation's expression also
 * has the JSON Patch library; in the CEL environment of a
 * minor when a policy is written. Compiled programs are remembered by expression and environment, so a policy
 * is compiled once, not on every request it sees.
 */
import { compile, type CelEnvironmentVersion, type CelType, type CompileResult, type Declarations } from '../cel/index.js';
import { withObjectLiterals } from './object-construction.js';

export interface Environment {
  hasParams: boolean;
  /** The variables declared before this expression (a variable sees only the earlier ones). */
  variables: readonly string[];
  /** Where a policy write compiles it (new or stored, at the server's minor); evaluation leaves it out: the newest stored environment. */
  version?: CelEnvironmentVersion;
  /** A mutation's expression: the patch types environment, with the JSON Patch library (not a variable's or condition's). */
  patchTypes?: boolean;
}

const DYN: CelType = { kind: 'dyn' };
const AUTHORIZER: CelType = { kind: 'authorizer' };
/** Enough for every policy a test suite installs; past it the cache starts over rather than grow. */
const CACHE_LIMIT = 2_000;
const cache = new Map<string, CompileResult>();

function declarations(env: Environment): Declarations {
  return {
    object: DYN,
    oldObject: DYN,
    request: DYN,
    namespaceObject: DYN,
    authorizer: AUTHORIZER,
    variables: { kind: 'object', fields: Object.fromEntries(env.variables.map((v) => [v, DYN])) },
    ...(env.hasParams ? { params: DYN } : {}),
  };
}

/** The compiled expression, or kube-apiserver's compile error text. */
export function compiled(expression: string, env: Environment): CompileResult {
  const at = env.version === undefined ? '' : `${env.version.minor}${env.version.mode}`;
  const key = `${env.hasParams ? 'p' : '-'}${env.patchTypes === true ? 'm' : '-'}|${at}|${env.variables.join(',')}|${expression}`;
  let r = cache.get(key);
  if (r === undefined) {
    r = compile(expression, declarations(env), env.version, { patchTypes: env.patchTypes === true });
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, r);
  }
  return r;
}

/** Undefined when `expression` compiles in `env`; otherwise kube-apiserver's message for it. */
export function compileAdmissionExpression(expression: string, env: Environment): string | undefined {
  const r = compiled(expression, env);
  return r.ok ? undefined : r.error;
}

/**
 * Undefined when a mutation's `expression` (with `Object{…}` / `JSONPatch{…}` constructions)
 * compiles in `env`; otherwise the compiler's message.
 */
export function compileMutationExpression(expression: string, env: Environment): string | undefined {
  return compileAdmissionExpression(withObjectLiterals(expression), { ...env, patchTypes: true });
}
