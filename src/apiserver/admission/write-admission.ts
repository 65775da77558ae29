/**
 * Admission around one write of the pipeline, in kube-apiserver's order: mutating webhooks on the
 * decoded object, then every step of the write as a dry run (defaulting, schema and strategy
 * validation) to get the object as it would be stored, then the validating webhooks on that, then
 * the write itself. Invariants: with no webhook configuration stored, the write runs at once and
 * synchronously, exactly as without admission; the real write happens in one synchronous step after
 * the last await and refuses (409) an update whose stored object changed while webhooks ran, so no
 * change is ever lost; warnings of every webhook reach the response.
 */
import { clone, type KubeObject } from '../../meta/index.js';
import { storageKey, type Scope, type ServerContext } from '../registry/index.js';
import { modifiedConflict } from '../ground/index.js';
import type { AdmissionOperation } from '../admission-cel/index.js';
import { admitMutating, admitValidating, type AdmissionDeps, type WebhookConfiguration } from './webhook-admission.js';
import type { ServiceResolver } from '../webhook-call.js';
import { admitByPolicy } from '../admission-policy/index.js';
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

/**
 * Runs `write` through admission. `write(obj, dryRun, unowned)` is the pipeline step (create,
 * update or delete) the handler would run on its own, `unowned` the fields mutating policies set,
 * which no manager owns; `old` is the stored object an update or delete was computed from.
 */
export function admitWrite<R extends { object: KubeObject; warnings: string[] }>(
  scope: Scope,
  request: { operation: AdmissionOperation; object?: KubeObject; old?: KubeObject; dryRun: boolean; options?: Record<string, unknown> },
  write: (obj: KubeObject | undefined, dryRun: boolean, unowned: FieldSet | undefined) => R | Promise<R>,
): R | Promise<R> {
  const { ctx, strategy } = scope;
  // Mutating policies run before the mutating webhooks; validating policies on a delete, before the validating webhooks.
  const policies = admitByPolicy(scope, request);
  const withPolicyWarnings = (r: R): R => (policies.warnings.length === 0 ? r : { ...r, warnings: [...policies.warnings, ...r.warnings] });
  const mutating = request.operation === 'DELETE' ? [] : configurations(ctx, 'mutatingwebhookconfigurations');
  const validating = configurations(ctx, 'validatingwebhookconfigurations');
  if (mutating.length + validating.length === 0) {
    const admitted = policies.afterWebhooks(policies.object);
    const r = write(admitted, request.dryRun, policies.unowned());
    return r instanceof Promise ? r.then(withPolicyWarnings) : withPolicyWarnings(r);
  }
  const deps: AdmissionDeps = { clock: ctx.clock, newUid: () => ctx.newUid(), resolveService: serviceResolver(ctx) };
  const namespace = request.object?.metadata.namespace ?? request.old?.metadata.namespace ?? scope.namespace;
  const name = request.object?.metadata.name ?? request.old?.metadata.name ?? scope.name;
  const attributes = {
    operation: request.operation,
    group: strategy.group,
    version: scope.version,
    kind: strategy.kind,
    resource: strategy.plural,
    subresource: scope.subresource,
    namespaced: strategy.namespaced,
    namespace,
    name,
    ...(request.old ? { oldObject: request.old } : {}),
    namespaceLabels: strategy.namespaced ? ctx.store.get('/namespaces', namespace)?.metadata.labels : undefined,
    dryRun: request.dryRun,
    userInfo: scope.req.user ?? ADMIN_USER,
    authorizer: ctx.authorizer,
    ...(request.options ? { options: request.options } : {}),
  };
  return (async () => {
    const webhooks = await admitMutating(mutating, { ...attributes, ...(policies.object ? { object: policies.object } : {}) }, deps);
    const m = { ...webhooks, object: policies.afterWebhooks(webhooks.object) };
    const preview = await write(m.object && clone(m.object), true, policies.unowned());
    const validated = request.operation === 'DELETE' ? {} : { object: preview.object };
    const warnings = [...m.warnings, ...(await admitValidating(validating, { ...attributes, ...validated }, deps))];
    if (request.dryRun) return withPolicyWarnings({ ...preview, warnings: [...warnings, ...preview.warnings] });
    if (request.old) {
      const now = ctx.store.get(strategy.storageId, storageKey(strategy, namespace, name));
      if (now?.metadata.resourceVersion !== request.old.metadata.resourceVersion) throw modifiedConflict(strategy, name);
    }
    const r = await write(m.object, false, policies.unowned());
    return withPolicyWarnings({ ...r, warnings: [...warnings, ...r.warnings] });
  })();
}

/** `then(r)` now for a write that ran synchronously, or once an admitted write has finished. */
export function afterWrite<R, T>(r: R | Promise<R>, then: (r: R) => T | Promise<T>): T | Promise<T> {
  return r instanceof Promise ? r.then(then) : then(r);
}
