/**
 * Admission handlers for one kind: the defaulter (whose changes become the JSON patch Converge
 * computes) and the validator (create, update, delete; warnings and denials), and the one wrapper
 * that turns an AdmissionReview body into a response. Invariants: the user's function sees a copy it
 * may change freely and an object of the registered kind only (anything else is refused with 400);
 * a throw or rejection answers 500 and is logged with the request's UID; nothing is swallowed.
 */
import type { KubeObject, Logger, ResourceDescriptor } from '../meta/index.js';
import {
  allowedResponse,
  erroredResponse,
  reviewResponse,
  type AdmissionOperation,
  type AdmissionRequest,
  type AdmissionResponse,
  type AdmissionReview,
} from './admission-review.js';
import { denialStatus, type ValidationResult } from './denial.js';
import { createJsonPatch } from './json-patch-diff.js';

/** What a defaulter or validator is told about the request besides the object. */
export interface AdmissionContext {
  /** The request as the API server sent it (user, options, sub-resource, …). */
  readonly request: AdmissionRequest;
  readonly operation: AdmissionOperation;
  /** True for a dry run: make no change outside the response (no calls with side effects). */
  readonly dryRun: boolean;
  /** A logger carrying the request's `uid`, kind and name. */
  readonly logger: Logger;
  /** Aborts when the API server hangs up or the webhook server stops. */
  readonly signal: AbortSignal;
}

/** Sets defaults on `obj` in place (a copy); the changes are answered as a JSON patch. Throwing answers 500. */
export type Defaulter<T> = (obj: T, ctx: AdmissionContext) => void | Promise<void>;

/** What a validator returns: nothing (allowed), or warnings and a denial. */
export type ValidatorOutcome = ValidationResult | void;

/** Validation per operation; an operation without a function is allowed (and not registered in manifests). */
export interface Validator<T> {
  create?(obj: T, ctx: AdmissionContext): ValidatorOutcome | Promise<ValidatorOutcome>;
  update?(oldObj: T, newObj: T, ctx: AdmissionContext): ValidatorOutcome | Promise<ValidatorOutcome>;
  delete?(obj: T, ctx: AdmissionContext): ValidatorOutcome | Promise<ValidatorOutcome>;
}

/** Answers one admission request; a throw becomes the 500 response. @extension */
export type AdmissionHandler = (request: AdmissionRequest, ctx: AdmissionContext) => Promise<AdmissionResponse>;

/** Thrown inside a handler for a request that cannot be decoded as the registered kind: answered 400. */
class BadAdmissionRequest extends Error {}

function objectOf<T extends KubeObject>(resource: ResourceDescriptor<T>, obj: KubeObject | null | undefined, field: string): T {
  if (!obj || typeof obj !== 'object') throw new BadAdmissionRequest(`request.${field} is missing: there is no content to decode`);
  if (obj.apiVersion !== resource.apiVersion || obj.kind !== resource.kind) {
    throw new BadAdmissionRequest(
      `request.${field} is ${obj.apiVersion ?? '?'}, Kind=${obj.kind ?? '?'}; this webhook serves ${resource.apiVersion}, Kind=${resource.kind}`,
    );
  }
  return structuredClone(obj) as T;
}

/** The mutating handler of `defaulter`: DELETE and CONNECT are allowed untouched, as controller-runtime does. */
export function defaultingHandler<T extends KubeObject>(resource: ResourceDescriptor<T>, defaulter: Defaulter<T>): AdmissionHandler {
  return async (request, ctx) => {
    if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return allowedResponse(request.uid);
    const original = objectOf(resource, request.object, 'object');
    const obj = structuredClone(original);
    await defaulter(obj, ctx);
    const patch = createJsonPatch(original, JSON.parse(JSON.stringify(obj)));
    if (patch.length === 0) return allowedResponse(request.uid);
    return { ...allowedResponse(request.uid), patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
  };
}

/** The validating handler of `validator`: the operation picks the function, a denial refuses with its Status. */
export function validatingHandler<T extends KubeObject>(resource: ResourceDescriptor<T>, validator: Validator<T>): AdmissionHandler {
  return async (request, ctx) => {
    let outcome: ValidatorOutcome = undefined;
    if (request.operation === 'CREATE' && validator.create) {
      outcome = await validator.create(objectOf(resource, request.object, 'object'), ctx);
    } else if (request.operation === 'UPDATE' && validator.update) {
      outcome = await validator.update(
        objectOf(resource, request.oldObject, 'oldObject'),
        objectOf(resource, request.object, 'object'),
        ctx,
      );
    } else if (request.operation === 'DELETE' && validator.delete) {
      outcome = await validator.delete(objectOf(resource, request.oldObject, 'oldObject'), ctx);
    }
    const warnings = outcome?.warnings ?? [];
    if (!outcome?.denied) return allowedResponse(request.uid, warnings);
    return {
      uid: request.uid,
      allowed: false,
      status: denialStatus(outcome.denied, { group: resource.group, kind: resource.kind, name: request.name }),
      ...(warnings.length ? { warnings: [...warnings] } : {}),
    };
  };
}

/**
 * Answers an AdmissionReview body with `handler`: a body that is not a review with a request answers
 * 400 in the review, a throw answers 500 and is logged with the request's UID.
 */
export async function serveAdmission(
  body: unknown,
  handler: AdmissionHandler,
  options: { logger: Logger; signal: AbortSignal },
): Promise<AdmissionReview> {
  const review = body as Partial<AdmissionReview> | null;
  const apiVersion = typeof review?.apiVersion === 'string' ? review.apiVersion : 'admission.k8s.io/v1';
  const request = review?.request;
  if (review?.kind !== 'AdmissionReview' || !request || typeof request.uid !== 'string') {
    return reviewResponse(apiVersion, erroredResponse('', 400, 'the request body is not an AdmissionReview with a request and its uid'));
  }
  const logger = options.logger.child({
    uid: request.uid,
    kind: request.kind?.kind,
    namespace: request.namespace,
    name: request.name,
    operation: request.operation,
  });
  try {
    const ctx: AdmissionContext = {
      request,
      operation: request.operation,
      dryRun: request.dryRun === true,
      logger,
      signal: options.signal,
    };
    return reviewResponse(apiVersion, await handler(request, ctx));
  } catch (err) {
    if (err instanceof BadAdmissionRequest) {
      logger.info({ err }, 'admission request refused: cannot decode it');
      return reviewResponse(apiVersion, erroredResponse(request.uid, 400, err.message));
    }
    logger.error({ err }, 'admission webhook failed');
    const message = err instanceof Error ? err.message : String(err);
    return reviewResponse(apiVersion, erroredResponse(request.uid, 500, `webhook failed: ${message}`));
  }
}
