/**
 * The `admission.k8s.io` AdmissionReview as it crosses the wire (v1 and v1beta1 share the shape), and
 * the responses every admission webhook answers with. Invariant: a response always carries the
 * request's `uid` and is wrapped in a review of the request's own `apiVersion`, as the API server
 * requires; an allowed response carries a patch only when it changes something.
 */
import type { KubeObject, Status } from '../meta/index.js';

/** The operation an admission request is for. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** The group, version and kind (or resource) an admission request names. */
export interface AdmissionGroupVersion {
  group: string;
  version: string;
}

/** What the API server sends an admission webhook: the operation, the objects and who asked. */
export interface AdmissionRequest {
  uid: string;
  kind: AdmissionGroupVersion & { kind: string };
  resource: AdmissionGroupVersion & { resource: string };
  subResource?: string;
  requestKind?: AdmissionGroupVersion & { kind: string };
  requestResource?: AdmissionGroupVersion & { resource: string };
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: AdmissionOperation;
  userInfo: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  /** The object after the write (absent for DELETE). */
  object?: KubeObject | null;
  /** The object before the write (UPDATE and DELETE). */
  oldObject?: KubeObject | null;
  /** True when the request is a dry run: the webhook must make no change outside the response. */
  dryRun?: boolean;
  options?: Record<string, unknown> | null;
}

/** A webhook's answer: allowed or not, why not, the JSON patch of a mutation, warnings for the client. */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: Status;
  patch?: string;
  patchType?: 'JSONPatch';
  auditAnnotations?: Record<string, string>;
  warnings?: string[];
}

/** The envelope both directions use: the request going to the webhook, the response coming back. */
export interface AdmissionReview {
  apiVersion: string;
  kind: 'AdmissionReview';
  request?: AdmissionRequest;
  response?: AdmissionResponse;
}

/** The review versions a webhook served by Converge understands, newest first. */
export const ADMISSION_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;

/** The response wrapped as the review the API server expects back. */
export function reviewResponse(apiVersion: string, response: AdmissionResponse): AdmissionReview {
  return { apiVersion, kind: 'AdmissionReview', response };
}

/** An allowed response, with `warnings` when there are any. */
export function allowedResponse(uid: string, warnings: readonly string[] = []): AdmissionResponse {
  return { uid, allowed: true, status: { metadata: {}, code: 200 }, ...(warnings.length ? { warnings: [...warnings] } : {}) };
}

/** A response for a webhook that failed (a throw, a bad request): not allowed, with `code` and the reason in `message`. */
export function erroredResponse(uid: string, code: number, message: string): AdmissionResponse {
  return { uid, allowed: false, status: { metadata: {}, status: 'Failure', code, message } };
}
