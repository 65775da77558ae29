/**
 * The Kubernetes authz library admission expressions use: `authorizer.path('/healthz')`,
 * `authorizer.group('apps').resource('deployments').subresource(s).namespace(ns).name(n)` (and
 * `fieldSelector`/`labelSelector`, which RBAC ignores), `.check(verb)` giving a Decision with `allowed()`, `reason()`,
 * `errored()` and `error()`; `authorizer.serviceAccount(ns, name)` for another identity, and
 * `authorizer.requestResource`, the check of the request's own resource. Every value is immutable:
 * each builder call answers a new check, so a shared `authorizer` is never changed by an
 * expression. A check costs what kube-apiserver charges for one (350 000, two to an expression
 * within the per-call limit), charged on the running evaluation's meter.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { dns1123LabelErrors, dns1123SubdomainErrors } from '../../meta/index.js';
import type { RequestAttributes } from '../ground/index.js';
import { serviceAccountUser, type UserInfo } from '../ground/index.js';
import { celError } from './errors.js';
import { charge } from './runtime-cost.js';

/** What the library asks of the server's authorizer (the RBAC authorizer answers it). */
export interface CelAuthorizer {
  authorize(user: UserInfo, a: RequestAttributes): { allowed: boolean; reason: string };
}

/** The fixed cost of one authorization check, estimated and at run time. */
export const CHECK_COST = 350_000;
const LIST_CREATE_COST = 10;
const STRUCT_CREATE_COST = 40;

/** What parsing a selector of `length` characters costs: a list of requirements, one per two characters. */
export const selectorCost = (length: number): number =>
  LIST_CREATE_COST + Math.ceil(length * 0.1) + Math.ceil(length * 0.5) * (LIST_CREATE_COST + STRUCT_CREATE_COST);

const PREFIX = 'kubernetes.authorization';
export const AUTHORIZER_TYPE = `${PREFIX}.Authorizer`;
const PATH_CHECK = `${PREFIX}.PathCheck`;
const GROUP_CHECK = `${PREFIX}.GroupCheck`;
const RESOURCE_CHECK = `${PREFIX}.ResourceCheck`;
const DECISION = `${PREFIX}.Decision`;

/**
 * One check's answer. The RBAC authorizer never fails (nor does kube-apiserver's: a missing role is
 * a reason, not an error), so `errored()` is false and `error()` empty.
 */
export class Decision {
  constructor(
    readonly allowed: boolean,
    readonly reason: string,
  ) {}
}

/** What a resource check asks about (the request's own, for `requestResource`). */
export interface RequestResource {
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export class ResourceCheck {
  constructor(
    readonly authorizer: Authorizer,
    readonly fields: Readonly<RequestResource>,
  ) {}

  with(change: Partial<RequestResource>): ResourceCheck {
    return new ResourceCheck(this.authorizer, { ...this.fields, ...change });
  }

  check(verb: string): Decision {
    const { group, resource, subresource, namespace, name } = this.fields;
    return this.authorizer.decide({ kind: 'resource', verb, apiGroup: group, apiVersion: '*', resource, subresource, namespace, name });
  }
}

export class GroupCheck {
  constructor(
    readonly authorizer: Authorizer,
    readonly group: string,
  ) {}
}

export class PathCheck {
  constructor(
    readonly authorizer: Authorizer,
    readonly path: string,
  ) {}
}

/** The checks one user may be asked about. */
export class Authorizer {
  /** The check of the request's own resource; only the request's `authorizer` has one. */
  readonly requestResource: ResourceCheck | undefined;

  constructor(
    readonly user: UserInfo,
    readonly backend: CelAuthorizer,
    request?: RequestResource,
  ) {
    this.requestResource = request && new ResourceCheck(this, request);
  }

  decide(a: RequestAttributes): Decision {
    charge(CHECK_COST - 1);
    const d = this.backend.authorize(this.user, a);
    return new Decision(d.allowed, d.reason);
  }
}

const notEmpty = (what: string, s: string): string => {
  if (s.trim() === '') throw celError(`${what} must not be empty`);
  return s;
};

/**
 * A ServiceAccount's user as its token would authenticate it, minus `system:authenticated`: as in
 * kube-apiserver, the library names the account itself, not an authenticated request of it.
 */
function serviceAccount(a: Authorizer, namespace: string, name: string): Authorizer {
  if (dns1123SubdomainErrors(name).length > 0) throw celError('Invalid service account name');
  if (dns1123LabelErrors(namespace).length > 0) throw celError('Invalid service account namespace');
  const user = serviceAccountUser(namespace, name);
  return new Authorizer({ username: user.username, groups: user.groups.filter((g) => g !== 'system:authenticated') }, a.backend);
}

/** The `authorizer` variable of an admission expression: checks for `user`, with `requestResource` the request's own. */
export const celAuthorizer = (backend: CelAuthorizer, user: UserInfo, request: RequestResource): unknown =>
  new Authorizer(user, backend, request);

/** The authz library, and its selectors (`fieldSelector`, `labelSelector`, from 1.31) when `withSelectors`. */
export function registerAuthz(env: Environment, withSelectors: boolean): void {
  env.registerType(AUTHORIZER_TYPE, { ctor: Authorizer, fields: { requestResource: RESOURCE_CHECK } });
  env.registerType(PATH_CHECK, { ctor: PathCheck, fields: {} });
  env.registerType(GROUP_CHECK, { ctor: GroupCheck, fields: {} });
  env.registerType(RESOURCE_CHECK, { ctor: ResourceCheck, fields: {} });
  env.registerType(DECISION, { ctor: Decision, fields: {} });
  const fn = (signature: string, handler: (...args: never[]) => unknown) => env.registerFunction(signature, handler as never);
  fn(`${AUTHORIZER_TYPE}.path(string): ${PATH_CHECK}`, (a: Authorizer, p: string) => new PathCheck(a, notEmpty('path', p)));
  fn(`${AUTHORIZER_TYPE}.group(string): ${GROUP_CHECK}`, (a: Authorizer, g: string) => new GroupCheck(a, g));
  fn(`${AUTHORIZER_TYPE}.serviceAccount(string, string): ${AUTHORIZER_TYPE}`, serviceAccount);
  fn(
    `${GROUP_CHECK}.resource(string): ${RESOURCE_CHECK}`,
    (g: GroupCheck, r: string) =>
      new ResourceCheck(g.authorizer, { group: g.group, resource: notEmpty('resource', r), subresource: '', namespace: '', name: '' }),
  );
  for (const field of ['subresource', 'namespace', 'name'] as const)
    fn(`${RESOURCE_CHECK}.${field}(string): ${RESOURCE_CHECK}`, (c: ResourceCheck, v: string) => c.with({ [field]: v }));
  // RBAC decides without selectors (as on a cluster), so a selector changes no check: it only costs its parse.
  for (const selector of withSelectors ? ['fieldSelector', 'labelSelector'] : [])
    fn(`${RESOURCE_CHECK}.${selector}(string): ${RESOURCE_CHECK}`, (c: ResourceCheck, v: string) => {
      charge(selectorCost(v.length) - 1);
      return c;
    });
  fn(`${PATH_CHECK}.check(string): ${DECISION}`, (c: PathCheck, verb: string) =>
    c.authorizer.decide({ kind: 'nonResource', verb, path: c.path }),
  );
  fn(`${RESOURCE_CHECK}.check(string): ${DECISION}`, (c: ResourceCheck, verb: string) => c.check(verb));
  fn(`${DECISION}.allowed(): bool`, (d: Decision) => d.allowed);
  fn(`${DECISION}.reason(): string`, (d: Decision) => d.reason);
  fn(`${DECISION}.errored(): bool`, () => false);
  fn(`${DECISION}.error(): string`, () => '');
}
