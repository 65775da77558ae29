/**
 * Calling admission webhooks in kube-apiserver's order: the mutating webhooks one after another
 * (configurations by name, webhooks in their order), each patch applied before the next call, then
 * once more for `reinvocationPolicy: IfNeeded` webhooks that ran before a later change; the
 * validating webhooks all at once, the first denial winning. A dry run is refused before any call
 * if a matching webhook may have side effects. A call that fails (refused, timed out, bad answer)
 * denies the write with 500 under `failurePolicy: Fail` and is skipped under `Ignore`; so does a
 * webhook whose `matchConditions` fail to evaluate (one that gives false is not called at all).
 * Invariants: every webhook's warnings reach the client; the object a webhook returns must keep
 * its kind and identity; nothing here touches storage.
 */
import type { KubeObject, LabelSelector, Clock, Status } from '../../meta/index.js';
import { ApiStatusError, badRequest, internalError } from '../ground/index.js';
import { applyJsonPatch } from '../patch/index.js';
import type { WebhookAdmissionAttributes as AdmissionAttributes } from '../admission-cel/index.js';
import { webhookMatches, type WebhookRule } from './matching.js';
import { callWebhook, type ServiceResolver, type WebhookClientConfig } from '../webhook-call.js';
import { evaluateMatchConditions, type MatchCondition } from '../admission-cel/index.js';

/** The fields of an admissionregistration.k8s.io/v1 webhook this server honours. */
export interface AdmissionWebhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: WebhookRule[];
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  matchConditions?: MatchCondition[];
  failurePolicy?: string;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions: string[];
  reinvocationPolicy?: string;
}

/** A Mutating- or ValidatingWebhookConfiguration as stored. */
export interface WebhookConfiguration {
  metadata: { name?: string };
  webhooks?: AdmissionWebhook[];
}

/** What admission needs of the server: its clock, fresh UIDs, and where Services are. */
export interface AdmissionDeps {
  clock: Clock;
  newUid(): string;
  resolveService?: ServiceResolver;
}

const SUPPORTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

interface WebhookAnswer {
  allowed: boolean;
  status?: Status;
  patch?: string;
  patchType?: string;
  warnings?: string[];
}

/** The webhooks of `configs` in call order: configurations by name, then each one's own order. */
function ordered(configs: readonly WebhookConfiguration[]): AdmissionWebhook[] {
  return [...configs].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')).flatMap((c) => c.webhooks ?? []);
}

/** Webhooks that may have side effects cannot be sent a dry run: the request is refused (400). */
function refuseDryRunWithSideEffects(hooks: readonly AdmissionWebhook[], a: AdmissionAttributes): void {
  if (!a.dryRun) return;
  const unsafe = hooks.find((h) => h.sideEffects !== 'None' && h.sideEffects !== 'NoneOnDryRun');
  if (unsafe) throw badRequest(`admission webhook "${unsafe.name}" does not support dry run`);
}

function reviewOf(
  h: AdmissionWebhook,
  a: AdmissionAttributes,
  uid: string,
  object: KubeObject | undefined,
): { apiVersion: string; body: unknown } {
  const version = h.admissionReviewVersions.find((v) => SUPPORTED_REVIEW_VERSIONS.includes(v));
  if (!version) throw new Error(`webhook does not accept known AdmissionReview versions: ${h.admissionReviewVersions.join(', ')}`);
  const apiVersion = `admission.k8s.io/${version}`;
  const kind = { group: a.group, version: a.version, kind: a.kind };
  const resource = { group: a.group, version: a.version, resource: a.resource };
  return {
    apiVersion,
    body: {
      apiVersion,
      kind: 'AdmissionReview',
      request: {
        uid,
        kind,
        resource,
        ...(a.subresource ? { subResource: a.subresource, requestSubResource: a.subresource } : {}),
        requestKind: kind,
        requestResource: resource,
        name: a.name,
        ...(a.namespaced ? { namespace: a.namespace } : {}),
        operation: a.operation,
        userInfo: a.userInfo,
        object: object ?? null,
        oldObject: a.oldObject ?? null,
        dryRun: a.dryRun,
        options: a.options ?? null,
      },
    },
  };
}

/** Calls one webhook; returns its answer, or undefined when the call failed and the policy is Ignore. */
async function invoke(
  h: AdmissionWebhook,
  a: AdmissionAttributes,
  object: KubeObject | undefined,
  deps: AdmissionDeps,
): Promise<WebhookAnswer | undefined> {
  const uid = deps.newUid();
  try {
    const { apiVersion, body } = reviewOf(h, a, uid, object);
    const out = (await callWebhook({
      config: h.clientConfig,
      body,
      timeoutMs: (h.timeoutSeconds ?? 10) * 1000,
      clock: deps.clock,
      resolveService: deps.resolveService,
    })) as {
      apiVersion?: string;
      kind?: string;
      response?: WebhookAnswer & { uid?: string };
    } | null;
    if (out?.kind !== 'AdmissionReview' || !out.response) throw new Error('the webhook response is not an AdmissionReview with a response');
    if (out.apiVersion !== apiVersion) throw new Error(`expected webhook response of ${apiVersion}, got ${String(out.apiVersion)}`);
    if (out.response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${String(out.response.uid)}"`);
    return out.response;
  } catch (err) {
    if (h.failurePolicy === 'Ignore') return undefined;
    throw internalError(`failed calling webhook "${h.name}": ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Whether the webhook is called with `object` by its matchConditions; their failure is the webhook's
 * failure (500 under Fail, skipped under Ignore).
 */
function conditionsMatch(h: AdmissionWebhook, a: AdmissionAttributes, object: KubeObject | undefined): boolean {
  const r = evaluateMatchConditions(h.matchConditions, a, object);
  if ('matches' in r) return r.matches;
  if (h.failurePolicy === 'Ignore') return false;
  throw internalError(`failed calling webhook "${h.name}": failed evaluating match conditions: ${r.error}`);
}

/** The error a webhook's denial becomes, worded as kube-apiserver words it. */
function denial(h: AdmissionWebhook, status: Status | undefined): ApiStatusError {
  const deniedBy = `admission webhook "${h.name}" denied the request`;
  const code = status?.code || 403;
  return new ApiStatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: status?.message ? `${deniedBy}: ${status.message}` : deniedBy,
    reason: status?.reason || (code === 403 ? 'Forbidden' : ''),
    code,
    ...(status?.details ? { details: status.details } : {}),
  });
}

function patched(h: AdmissionWebhook, object: KubeObject, answer: WebhookAnswer): KubeObject {
  if (!answer.patch) return object;
  if (answer.patchType !== 'JSONPatch')
    throw internalError(`admission webhook "${h.name}" returned an unsupported patchType ${String(answer.patchType)}`);
  let ops: unknown;
  try {
    ops = JSON.parse(Buffer.from(answer.patch, 'base64').toString('utf8'));
  } catch {
    throw internalError(`admission webhook "${h.name}" returned a patch that is not JSON`);
  }
  const out = applyJsonPatch(object, ops) as KubeObject;
  if (
    out?.apiVersion !== object.apiVersion ||
    out.kind !== object.kind ||
    out.metadata?.name !== object.metadata.name ||
    out.metadata?.namespace !== object.metadata.namespace
  ) {
    throw internalError(`admission webhook "${h.name}" changed the object's apiVersion, kind, name or namespace`);
  }
  return out;
}

/**
 * Runs the mutating webhooks of `configs` on `a.object` (CREATE, UPDATE) and returns the object as
 * they left it, with their warnings. Throws the denial, the failure, or 400 for a dry run they cannot take.
 */
export async function admitMutating(
  configs: readonly WebhookConfiguration[],
  a: AdmissionAttributes,
  deps: AdmissionDeps,
): Promise<{ object: KubeObject | undefined; warnings: string[] }> {
  const hooks = ordered(configs).filter((h) => webhookMatches(h, a));
  refuseDryRunWithSideEffects(hooks, a);
  const warnings: string[] = [];
  let object = a.object;
  // For each IfNeeded webhook: did a later webhook change the object after it ran?
  const changedSince = new Map<AdmissionWebhook, boolean>();
  const run = async (h: AdmissionWebhook): Promise<void> => {
    if (!conditionsMatch(h, a, object)) return;
    const answer = await invoke(h, a, object, deps);
    if (!answer) return;
    warnings.push(...(answer.warnings ?? []));
    if (!answer.allowed) throw denial(h, answer.status);
    if (!object) return;
    const next = patched(h, object, answer);
    if (next !== object) for (const k of changedSince.keys()) if (k !== h) changedSince.set(k, true);
    object = next;
  };
  for (const h of hooks) {
    await run(h);
    if (h.reinvocationPolicy === 'IfNeeded') changedSince.set(h, false);
  }
  for (const h of hooks) if (changedSince.get(h)) await run(h);
  return { object, warnings };
}

/**
 * Runs the validating webhooks of `configs` on the object as it would be stored; resolves with their
 * warnings, or throws the first denial (in call order) or failure.
 */
export async function admitValidating(
  configs: readonly WebhookConfiguration[],
  a: AdmissionAttributes,
  deps: AdmissionDeps,
): Promise<string[]> {
  const hooks = ordered(configs).filter((h) => webhookMatches(h, a) && conditionsMatch(h, a, a.object));
  refuseDryRunWithSideEffects(hooks, a);
  const answers = await Promise.allSettled(hooks.map((h) => invoke(h, a, a.object, deps)));
  const warnings = answers.flatMap((r) => (r.status === 'fulfilled' ? (r.value?.warnings ?? []) : []));
  answers.forEach((r, i) => {
    if (r.status === 'rejected') throw r.reason;
    if (r.value && !r.value.allowed) throw denial(hooks[i]!, r.value.status);
  });
  return warnings;
}
