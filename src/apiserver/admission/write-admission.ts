/**
 * The one admission path of a write, in kube-apiserver's plugin order: mutating policies, then
 * mutating webhooks (then a second pass of both for `IfNeeded` reinvocations), then the write's
 * own defaulting and validation, then validating policies, then validating webhooks, then the
 * write itself. The request's
 * `Attributes` and `MatchContext` are built once here and handed to every step, the validating
 * policies inside the write included. The write's steps run first as a dry run when webhooks wait
 * for the object as it would be stored. Invariants: with no webhook configuration stored, the write
 * runs at once and synchronously, exactly as without admission; the real write happens in one
 * synchronous step after the last await and refuses (409) an update whose stored object changed
 * while webhooks ran, so no change is ever lost; warnings of every step reach the response.
 */
import { clone, type KubeObject } from '../../meta/index.js';
import { present, storageKey, type Scope, type ServerContext } from '../registry/index.js';
import { modifiedConflict } from '../ground/index.js';
import type { Attributes, Operation } from '../admission-cel/index.js';
import { attributesOf, validated, type WriteRequest } from './attributes-of.js';
import { matchContextOf, type MatchContext } from './matching.js';
import { admitValidating, mutatingWebhooks, type AdmissionDeps, type WebhookConfiguration } from './webhook-admission.js';
import type { ServiceResolver } from '../webhook-call.js';
import { admitByPolicy, validateByPolicy } from './policy/index.js';
import type { FieldSet } from '../apply/index.js';
import { ADMIN_USER } from '../ground/index.js';

const GROUP = 'admissionregistration.k8s.io';

const configurations = (ctx: ServerContext, plural: string): WebhookConfiguration[] =>
  [...ctx.store.current(`${GROUP}/${plural}`).values()] as unknown as WebhookConfiguration[];

/** A Service resolves to the first ready address of its Endpoints, on the port its Service port targets. */
export function serviceResolver(ctx: ServerContext): ServiceResolver {
  return ({ namespace, name, port }) => {
    const key = `${namespace}/${name}`;
    const svc = ctx.store.get('/services', key) as { spec?: { ports?: { name?: string; port: number }[] } } | undefined;
    const svcPort = svc?.spec?.ports?.find((p) => p.port === port);
    if (!svcPort) return undefined;
    const ep = ctx.store.get('/endpoints', key) as
      { subsets?: { addresses?: { ip: string }[]; ports?: { name?: string; port: number }[] }[] } | undefined;
    for (const subset of ep?.subsets ?? []) {
      const ip = subset.addresses?.[0]?.ip;
      const epPort = (subset.ports ?? []).find((p) => (svcPort.name ? p.name === svcPort.name : true));
      if (ip && epPort) return `https://${ip.includes(':') ? `[${ip}]` : ip}:${epPort.port}`;
    }
    return undefined;
  };
}

/** The request's admission, which the write hands to its validating step (`validateWrite`). */
export interface RequestAdmission {
  attributes: Attributes;
  match: MatchContext;
}

/** What admission hands the write: the fields mutating policies set, which no manager owns, and the request's admission. */
export interface Admitted {
  unowned: FieldSet | undefined;
  admission: RequestAdmission;
}

/**
 * Runs `write` through admission. `write(obj, dryRun, admitted)` is the pipeline step (create,
 * update or delete) the handler would run on its own; `request.old` is the stored object an update
 * or delete was computed from.
 */
export function admitWrite<R extends { object: KubeObject; warnings: string[] }>(
  scope: Scope,
  request: WriteRequest,
  write: (obj: KubeObject | undefined, dryRun: boolean, admitted: Admitted) => R | Promise<R>,
): R | Promise<R> {
  const { ctx } = scope;
  const attributes = attributesOf(scope, request, ADMIN_USER);
  const match = matchContextOf(scope, attributes);
  const admission: RequestAdmission = { attributes, match };
  const policies = admitByPolicy(scope, attributes, match);
  const admitted = (): Admitted => ({ unowned: policies.unowned(), admission });
  const withPolicyWarnings = (r: R): R => (policies.warnings.length === 0 ? r : { ...r, warnings: [...policies.warnings, ...r.warnings] });
  const mutating = request.operation === 'DELETE' ? [] : configurations(ctx, 'mutatingwebhookconfigurations');
  const validating = configurations(ctx, 'validatingwebhookconfigurations');
  if (mutating.length + validating.length === 0) {
    const r = write(policies.afterWebhooks(policies.object), request.dryRun, admitted());
    return r instanceof Promise ? r.then(withPolicyWarnings) : withPolicyWarnings(r);
  }
  const deps: AdmissionDeps = { clock: ctx.clock, newUid: () => ctx.newUid(), resolveService: serviceResolver(ctx) };
  return (async () => {
    const webhooks = mutatingWebhooks(mutating, { ...attributes, object: policies.object }, match, deps);
    // kube-apiserver's second pass: the policies' reinvocations, then the webhooks'.
    const object = await webhooks.again(policies.afterWebhooks(await webhooks.first(policies.object)));
    const preview = await write(object && clone(object), true, admitted());
    const stored = request.operation === 'DELETE' ? undefined : preview.object;
    const warnings = [...webhooks.warnings, ...(await admitValidating(validating, validated(attributes, stored), match, deps))];
    if (request.dryRun) return withPolicyWarnings({ ...preview, warnings: [...warnings, ...preview.warnings] });
    if (request.old) {
      const { namespace, name } = attributes;
      const now = ctx.store.get(scope.strategy.storageId, storageKey(scope.strategy, namespace, name));
      if (now?.metadata.resourceVersion !== request.old.metadata.resourceVersion) throw modifiedConflict(scope.strategy, name);
    }
    const r = await write(object, false, admitted());
    return withPolicyWarnings({ ...r, warnings: [...warnings, ...r.warnings] });
  })();
}

/**
 * The validating policies of a create or update, run by the write after its own validation on the
 * object as it would be stored. `admission` is the request's; a write that did not come through
 * `admitWrite` (the server's own, a scale) has its attributes built here, the stored object
 * presented in the request's version as `admitWrite` is given it.
 */
export function validateWrite(
  scope: Scope,
  admission: RequestAdmission | undefined,
  w: { operation: Operation; object: KubeObject; old: KubeObject | undefined; dryRun: boolean },
): string[] {
  const attributes = admission?.attributes ?? attributesOf(scope, { ...w, old: w.old && present(scope, w.old) }, ADMIN_USER);
  const match = admission?.match ?? matchContextOf(scope, attributes);
  return validateByPolicy(scope, validated(attributes, w.object), match);
}

/** `then(r)` now for a write that ran synchronously, or once an admitted write has finished. */
export function afterWrite<R, T>(r: R | Promise<R>, then: (r: R) => T | Promise<T>): T | Promise<T> {
  return r instanceof Promise ? r.then(then) : then(r);
}
