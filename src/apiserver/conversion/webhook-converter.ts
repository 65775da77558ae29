/**
 * A CRD's conversion webhook called as kube-apiserver calls it: one `ConversionReview` for all the
 * objects of one read or write that are not in the wanted version yet (a whole list is one review),
 * sent to the webhook's clientConfig (url, or a Service resolved to its endpoint) trusting its
 * caBundle, and cut after 30 s on the server's clock (conversion webhooks have no timeout field).
 * Invariants: the answer is checked (same uid, `Success`, one object per object sent, each of the
 * wanted apiVersion and kind); each converted object keeps the original's metadata except labels and
 * annotations, the only metadata a webhook may change; the result is defaulted and pruned by the
 * wanted version's schema as any read is; any failure is one error naming the kind and version
 * converted from, and no partial result is returned. Conversion has no failurePolicy: a failure is
 * an error.
 */
import type { Clock, KubeObject } from '../../meta/index.js';
import { callWebhook, type ServiceResolver } from '../webhook-call.js';
import { conversionFailed } from '../ground/index.js';
import type { Strategy } from '../registry/index.js';
import { applyDefaults, pruneUnknownFields } from '../schema/index.js';

/** What the converter needs of the server. */
export interface ConversionDeps {
  clock: Clock;
  newUid(): string;
  resolveService?: ServiceResolver;
}

const TIMEOUT_MS = 30_000;
const SUPPORTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

interface ReviewAnswer {
  response?: {
    uid?: string;
    convertedObjects?: unknown[];
    result?: { status?: string; message?: string };
  };
}

/** The objects sent, converted; throws when the webhook cannot be asked or its answer is not usable. */
async function ask(strategy: Strategy, objects: KubeObject[], apiVersion: string, deps: ConversionDeps): Promise<KubeObject[]> {
  const webhook = strategy.conversionWebhook!;
  const reviewVersion = webhook.conversionReviewVersions.find((v) => SUPPORTED_REVIEW_VERSIONS.includes(v));
  if (!reviewVersion)
    throw new Error(`webhook does not accept known ConversionReview versions: ${webhook.conversionReviewVersions.join(', ')}`);
  const uid = deps.newUid();
  const answer = (await callWebhook({
    config: webhook.clientConfig,
    body: {
      kind: 'ConversionReview',
      apiVersion: `apiextensions.k8s.io/${reviewVersion}`,
      request: { uid, desiredAPIVersion: apiVersion, objects },
    },
    timeoutMs: TIMEOUT_MS,
    clock: deps.clock,
    ...(deps.resolveService ? { resolveService: deps.resolveService } : {}),
  })) as ReviewAnswer | null;
  const response = answer?.response;
  if (!response) throw new Error('no response provided');
  if (response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${response.uid ?? ''}"`);
  const result = response.result;
  if (result?.status !== 'Success') {
    throw new Error(result?.message || `response.result.status was '${result?.status ?? ''}', not 'Success'`);
  }
  const converted = response.convertedObjects ?? [];
  if (converted.length !== objects.length) {
    throw new Returned(`returned ${converted.length} objects, expected ${objects.length}`);
  }
  return converted.map((c, i) => restoreMetadata(objects[i]!, checked(c, i, apiVersion, strategy.kind)));
}

/** A failure the message states without the "failed:" of a failed call. */
class Returned extends Error {}

function checked(c: unknown, index: number, apiVersion: string, kind: string): KubeObject {
  const bad = (why: string): never => {
    throw new Returned(`returned invalid converted object at index ${index}: ${why}`);
  };
  if (c === null || typeof c !== 'object' || Array.isArray(c)) return bad('must be an object');
  const o = c as KubeObject;
  if (o.apiVersion !== apiVersion) bad(`invalid apiVersion "${String(o.apiVersion ?? '')}", expected "${apiVersion}"`);
  if (o.kind !== kind) bad(`invalid kind "${String(o.kind ?? '')}", expected "${kind}"`);
  if (o.metadata !== undefined && (o.metadata === null || typeof o.metadata !== 'object' || Array.isArray(o.metadata)))
    bad('metadata must be an object');
  return o;
}

/** The original metadata with the webhook's labels and annotations. */
function restoreMetadata(original: KubeObject, converted: KubeObject): KubeObject {
  const metadata = { ...original.metadata };
  const { labels, annotations } = converted.metadata ?? {};
  if (labels) metadata.labels = labels;
  else delete metadata.labels;
  if (annotations) metadata.annotations = annotations;
  else delete metadata.annotations;
  return { ...converted, metadata };
}

/**
 * `objects` (of `strategy`, any versions) in `version`, in order, through one review of those not in
 * it already; none needing conversion makes no call. Failures are 500s with the converter's message.
 */
export async function convertThroughWebhook(
  strategy: Strategy,
  objects: readonly KubeObject[],
  version: string,
  deps: ConversionDeps,
): Promise<KubeObject[]> {
  const apiVersion = strategy.apiVersion(version);
  const pending = objects.filter((o) => o.apiVersion !== apiVersion);
  if (pending.length === 0) return [...objects];
  let converted: KubeObject[];
  try {
    converted = await ask(strategy, pending, apiVersion, deps);
  } catch (err) {
    const from = `${String(pending[0]!.apiVersion)}, Kind=${strategy.kind}`;
    const message = err instanceof Error ? err.message : String(err);
    throw conversionFailed(`conversion webhook for ${from} ${err instanceof Returned ? message : `failed: ${message}`}`);
  }
  const schema = strategy.version(version)?.schema;
  for (const o of converted) {
    if (!schema) continue;
    applyDefaults(o, schema);
    pruneUnknownFields(o, schema);
  }
  let next = 0;
  return objects.map((o) => (o.apiVersion === apiVersion ? o : converted[next++]!));
}
