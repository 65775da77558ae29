/**
 * Calling admission webhooks in kube-apiserver's order: the mutating webhooks one after another
 * (configurations by name, webhooks in their order), each patch applied before the next call, then
 * in a second pass once more for `reinvocationPolicy: IfNeeded` webhooks that ran before a later
 * change (a webhook's, or a reinvoked policy's); the
 * validating webhooks all at once, the first denial winning. A dry run is refused before any call
 * if a matching webhook may have side effects. A call that fails (refused, timed out, bad answer)
 * denies the write with 500 under `failurePolicy: Fail` and is skipped under `Ignore`; so does a
 * webhook whose `matchConditions` fail to evaluate (one that gives false is not called at all).
 * Invariants: every webhook's warnings reach the client; the object a webhook returns must keep
 * its kind and identity; nothing here touches storage.
 */
import { jsonEqual, type KubeObject, type LabelSelector, type Clock, type Status } from '../../meta/index.js';
import { ApiStatusError, badRequest, internalError } from '../ground/index.js';
import { applyJsonPatch } from '../patch/index.js';
import {
  admissionRequest,
  evaluateMatchConditions,
  versioned,
  type Attributes,
  type MatchCondition,
  type Matched,
  type Versioned,
} from '../admission-cel/index.js';
import { matches, type MatchContext, type Rule } from './matching.js';
import { callWebhook, type ServiceResolver, type WebhookClientConfig } from '../webhook-call.js';

/** The fields of an admissionregistration.k8s.io/v1 webhook this server honours. */
export interface AdmissionWebhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: Rule[];
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  matchPolicy?: string;
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

/** A webhook to call and the resource its rule matched. */
interface Invocation {
  hook: AdmissionWebhook;
  as: Matched;
}

/** The webhooks of `configs` the write matches, in call order: configurations by name, then each one's own order. */
function invocations(configs: readonly WebhookConfiguration[], a: Attributes, m: MatchContext): Invocation[] {
  return [...configs]
    .sort((x, y) => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? ''))
    .flatMap((c) => c.webhooks ?? [])
    .flatMap((hook) => {
      const as = matches({ ...hook, rules: hook.rules ?? [] }, a, m);
      return as ? [{ hook, as }] : [];
    });
}

/** Webhooks that may have side effects cannot be sent a dry run: the request is refused (400). */
function refuseDryRunWithSideEffects(calls: readonly Invocation[], a: Attributes): void {
  if (!a.dryRun) return;
  const unsafe = calls.find(({ hook }) => hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun');
  if (unsafe) throw badRequest(`admission webhook "${unsafe.hook.name}" does not support dry run`);
}

function reviewOf(h: AdmissionWebhook, v: Versioned, uid: string): { apiVersion: string; body: unknown } {
  const version = h.admissionReviewVersions.find((x) => SUPPORTED_REVIEW_VERSIONS.includes(x));
  if (!version) throw new Error(`webhook does not accept known AdmissionReview versions: ${h.admissionReviewVersions.join(', ')}`);
  const apiVersion = `admission.k8s.io/${version}`;
  const { subResource, requestSubResource, namespace, ...request } = admissionRequest(v.attributes, v.as);
  return {
    apiVersion,
    body: {
      apiVersion,
      kind: 'AdmissionReview',
      request: {
        uid,
        ...request,
        // Go's omitempty: no subresource fields for the main resource, no namespace for a cluster-scoped one.
        ...(v.attributes.subresource ? { subResource, requestSubResource } : {}),
        ...(v.attributes.namespaced ? { namespace } : {}),
        object: v.object ?? null,
        oldObject: v.oldObject ?? null,
      },
    },
  };
}

/** Calls one webhook; returns its answer, or undefined when the call failed and the policy is Ignore. */
async function invoke(h: AdmissionWebhook, v: Versioned, deps: AdmissionDeps): Promise<WebhookAnswer | undefined> {
  const uid = deps.newUid();
  try {
    const { apiVersion, body } = reviewOf(h, v, uid);
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
function conditionsMatch(h: AdmissionWebhook, v: Versioned): boolean {
  const r = evaluateMatchConditions(h.matchConditions, v);
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

/** The mutating webhooks of one write: their first pass, then the reinvocation kube-apiserver's second pass makes. */
export interface MutatingWebhooks {
  /** Calls every matching webhook in order on `object`; answers the object they leave. */
  first(object: KubeObject | undefined): Promise<KubeObject | undefined>;
  /**
   * The second pass, after the policies' own: calls once more each `IfNeeded` webhook the object
   * changed after (a later webhook's change, or the policies' since the first pass ended).
   */
  again(object: KubeObject | undefined): Promise<KubeObject | undefined>;
  /** Every called webhook's warnings, in call order. */
  warnings: string[];
}

/**
 * The mutating webhooks of `configs` that match the write `a` (CREATE, UPDATE). A webhook matched
 * through an equivalent resource is sent the object in that resource's version, and its patch is
 * converted back. Throws 400 for a dry run they cannot take; a call throws its denial or failure.
 */
export function mutatingWebhooks(
  configs: readonly WebhookConfiguration[],
  a: Attributes,
  m: MatchContext,
  deps: AdmissionDeps,
): MutatingWebhooks {
  const calls = invocations(configs, a, m);
  refuseDryRunWithSideEffects(calls, a);
  const warnings: string[] = [];
  // IfNeeded webhooks called since the object last changed, and those it changed after (to call again).
  const invoked = new Set<AdmissionWebhook>();
  const pending = new Set<AdmissionWebhook>();
  let lastOutput: KubeObject | undefined;
  const call = async ({ hook: h, as }: Invocation, object: KubeObject | undefined): Promise<KubeObject | undefined> => {
    const v = versioned(a, as, object);
    if (!conditionsMatch(h, v)) return object;
    const answer = await invoke(h, v, deps);
    if (!answer) return object;
    warnings.push(...(answer.warnings ?? []));
    if (!answer.allowed) throw denial(h, answer.status);
    if (!object || !v.object) return object;
    const out = patched(h, v.object, answer);
    // A patch that leaves the object as it was is no change (kube-apiserver compares the objects).
    if (out === v.object || jsonEqual(out, v.object)) return object;
    for (const k of invoked) pending.add(k);
    invoked.clear();
    return as.fromMatched(out);
  };
  return {
    warnings,
    async first(object) {
      for (const c of calls) {
        object = await call(c, object);
        if (c.hook.reinvocationPolicy === 'IfNeeded') invoked.add(c.hook);
      }
      lastOutput = object;
      return object;
    },
    async again(object) {
      if (object !== lastOutput && !jsonEqual(object, lastOutput)) for (const k of invoked) pending.add(k);
      // A webhook is due when reached: a change in this pass makes the ones after it due too.
      for (const c of calls) if (pending.delete(c.hook)) object = await call(c, object);
      return object;
    },
  };
}

/**
 * Runs the validating webhooks of `configs` on the object as it would be stored; resolves with their
 * warnings, or throws the first denial (in call order) or failure.
 */
export async function admitValidating(
  configs: readonly WebhookConfiguration[],
  a: Attributes,
  m: MatchContext,
  deps: AdmissionDeps,
): Promise<string[]> {
  const calls = invocations(configs, a, m)
    .map((c) => ({ ...c, v: versioned(a, c.as) }))
    .filter((c) => conditionsMatch(c.hook, c.v));
  refuseDryRunWithSideEffects(calls, a);
  const answers = await Promise.allSettled(calls.map((c) => invoke(c.hook, c.v, deps)));
  const warnings = answers.flatMap((r) => (r.status === 'fulfilled' ? (r.value?.warnings ?? []) : []));
  answers.forEach((r, i) => {
    if (r.status === 'rejected') throw r.reason;
    if (r.value && !r.value.allowed) throw denial(calls[i]!.hook, r.value.status);
  });
  return warnings;
}
