/**
 * Mutating admission by policy, as kube-apiserver's MutatingAdmissionPolicy plugin runs it before
 * the mutating webhooks: every stored policy whose matchConstraints select the write, with each of
 * its bindings that also select it, once per param, in name order, each seeing the object the one
 * before left. Reinvocation follows the real server: a policy with `reinvocationPolicy: IfNeeded`
 * runs once more when a later policy (or a webhook) changed the object after it ran, and no policy
 * runs more than twice. Errors (a mutation that fails, a binding that cannot be configured) follow
 * the policy's failurePolicy; under Fail the first one denies the write with 403, as the real
 * server words it. Synchronous, so a write without webhooks stays atomic.
 */
import { jsonEqual, type KubeObject } from '../../../meta/index.js';
import type { Scope } from '../../registry/index.js';
import { shapeOf } from '../../apply/index.js';
import { ApiStatusError } from '../../ground/index.js';
import { matches, type MatchContext } from '../matching.js';
import { versioned, type Attributes } from '../../admission-cel/index.js';
import { mutate } from './mutator.js';
import {
  bindingCriteria,
  byName,
  ConfigError,
  isAdmissionConfiguration,
  nameOf,
  namespaceObjectOf,
  paramsFor,
  policyCriteria,
  specOf,
} from './params.js';

const GROUP = 'admissionregistration.k8s.io';
const POLICIES = `${GROUP}/mutatingadmissionpolicies`;
const BINDINGS = `${GROUP}/mutatingadmissionpolicybindings`;
/** What one write's policy runs remember between the first pass and the reinvocation. */
export interface Reinvocation {
  /** IfNeeded invocations that ran since the object last changed. */
  invoked: Set<string>;
  /** Invocations that must run again: they ran before a later change. */
  pending: Set<string>;
  /** The object as the policies last left it (so a change by the webhooks after them is seen). */
  lastOutput: KubeObject | undefined;
}

export const newReinvocation = (): Reinvocation => ({ invoked: new Set(), pending: new Set(), lastOutput: undefined });

function changed(state: Reinvocation): void {
  for (const k of state.invoked) state.pending.add(k);
  state.invoked.clear();
}

interface PolicyError {
  policy: string;
  binding: string;
  message: string;
}

function denied(a: Attributes, e: PolicyError): ApiStatusError {
  const message = `policy '${e.policy}' with binding '${e.binding}' denied request: ${e.message}`;
  return new ApiStatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Invalid',
    details: { name: a.name, group: a.group, kind: a.resource, causes: [{ message }] },
    code: 403,
  });
}

/**
 * Runs the matching policies over `a.object` (a create or update) and answers the object they
 * leave. A policy matched through an equivalent resource mutates the object in that resource's
 * version, converted back after. `reinvoking` runs only the invocations `state` says must run again.
 */
export function mutateWithPolicies(scope: Scope, a: Attributes, m: MatchContext, state: Reinvocation, reinvoking = false): KubeObject {
  const { ctx } = scope;
  let object = a.object!;
  if (isAdmissionConfiguration(a)) return object;
  const policies = [...ctx.store.current(POLICIES).values()].sort(byName);
  if (policies.length === 0) return object;
  if (reinvoking && state.lastOutput !== undefined && !jsonEqual(state.lastOutput, object)) changed(state);
  const bindings = [...ctx.store.current(BINDINGS).values()].sort(byName);
  const namespaceObject = namespaceObjectOf(a, m);
  const shape = shapeOf(scope.strategy, scope.version);
  const errors: PolicyError[] = [];
  for (const policy of policies) {
    const spec = specOf(policy);
    const as = matches(policyCriteria(policy), { ...a, object }, m);
    if (!as) continue;
    const failClosed = spec.failurePolicy !== 'Ignore';
    const fail = (binding: KubeObject, message: string): void => {
      if (failClosed) errors.push({ policy: nameOf(policy), binding: nameOf(binding), message });
    };
    for (const binding of bindings) {
      if (specOf(binding).policyName !== nameOf(policy) || !matches(bindingCriteria(binding), { ...a, object }, m)) continue;
      let params;
      try {
        params = paramsFor(ctx, policy, binding, a);
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        fail(binding, `failed to configure binding: ${e.message}`);
        continue;
      }
      for (const p of params) {
        const key = JSON.stringify([nameOf(policy), nameOf(binding), p?.metadata.namespace ?? '', p?.metadata.name ?? '']);
        if (reinvoking && !state.pending.has(key)) continue;
        const write = versioned(a, as, object);
        const outcome = mutate({ policy, write, params: p, namespaceObject }, write.object!, shape);
        if (!outcome.ok) {
          fail(binding, outcome.error);
          continue;
        }
        if (!outcome.matched) continue;
        const next = outcome.object === write.object ? object : as.fromMatched(outcome.object);
        if (!jsonEqual(next, object)) changed(state);
        object = next;
        if (spec.reinvocationPolicy === 'IfNeeded') state.invoked.add(key);
      }
    }
  }
  state.lastOutput = object;
  if (reinvoking) state.pending.clear();
  if (errors.length > 0) throw denied(a, errors[0]!);
  return object;
}
