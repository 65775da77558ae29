/**
 * Failures as the real API server reports them: a `Status` object with the exact `reason`, `code`,
 * message wording and `details` of apimachinery's error constructors, carried by `ApiStatusError`
 * until the handler turns it into a response. Invariant: every error response body the server writes
 * is built here, so clients that branch on `reason` see the same values as from kube-apiserver (the
 * bytes are written by status-json.ts).
 */
import { ConvergeError, type Status } from '../../meta/index.js';
import type { FieldCause } from './field-cause.js';

// Field errors (one entry of `details.causes`) have one catalogue, beside the schema validators that
// need it without the rest of this file.
export { fieldCause, type FieldCause } from './field-cause.js';

export class ApiStatusError extends ConvergeError {
  readonly code = 'CONVERGE_API_STATUS';
  override readonly name = 'ApiStatusError';
  constructor(readonly status: Status & { code: number }) {
    super(`${status.code} ${status.reason ?? ''}: ${status.message ?? ''}`);
  }
}

interface Target {
  group: string;
  plural: string;
}

function failure(code: number, reason: string, message: string, details?: Status['details']): ApiStatusError {
  const status: Status & { code: number } = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) status.details = details;
  return new ApiStatusError(status);
}

/** `configmaps` or `deployments.apps`: how messages name a resource. */
export const qualifiedResource = (t: Target): string => (t.group ? `${t.plural}.${t.group}` : t.plural);

export const notFound = (t: Target, name: string): ApiStatusError =>
  failure(404, 'NotFound', `${qualifiedResource(t)} "${name}" not found`, { name, group: t.group, kind: t.plural });

export const alreadyExists = (t: Target, name: string, prefix = ''): ApiStatusError =>
  failure(409, 'AlreadyExists', `${prefix}${qualifiedResource(t)} "${name}" already exists`, { name, group: t.group, kind: t.plural });

export const conflict = (t: Target, name: string, why: string): ApiStatusError =>
  failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(t)} "${name}": ${why}`, {
    name,
    group: t.group,
    kind: t.plural,
  });

export const modifiedConflict = (t: Target, name: string): ApiStatusError =>
  conflict(t, name, 'the object has been modified; please apply your changes to the latest version and try again');

/** The text apimachinery's `field.Error` prints: `field: Type: detail`. */
export const causeText = (c: FieldCause): string => (c.field ? `${c.field}: ${c.message}` : c.message);

export function invalid(kind: string, group: string, name: string, causes: FieldCause[]): ApiStatusError {
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  const list = causes.length === 1 ? causeText(causes[0]!) : `[${causes.map(causeText).join(', ')}]`;
  return failure(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${list}`, { name, group, kind, causes });
}

export const badRequest = (message: string): ApiStatusError => failure(400, 'BadRequest', message);

/** What kube-apiserver answers a request whose credentials are missing or wrong (no details, on purpose). */
export const unauthorized = (): ApiStatusError => failure(401, 'Unauthorized', 'Unauthorized');

export const forbidden = (t: Target, name: string, why: string, causes?: FieldCause[]): ApiStatusError =>
  failure(403, 'Forbidden', `${qualifiedResource(t)} "${name}" is forbidden: ${why}`, {
    name,
    group: t.group,
    kind: t.plural,
    ...(causes ? { causes } : {}),
  });

/**
 * An authorizer's denial, as apimachinery's `NewForbidden` for the request's resource (without its
 * subresource): `<resource> "<name>" is forbidden: <why>`, no name for a collection, and plain
 * `forbidden: <why>` with empty details for a non-resource path.
 */
export function forbiddenRequest(group: string, resource: string, name: string, why: string): ApiStatusError {
  const qualified = resource ? qualifiedResource({ group, plural: resource }) : '';
  const message = !qualified
    ? `forbidden: ${why}`
    : name
      ? `${qualified} "${name}" is forbidden: ${why}`
      : `${qualified} is forbidden: ${why}`;
  return failure(403, 'Forbidden', message, { name, group, kind: resource });
}

export const methodNotAllowed = (verb: string, t: Target): ApiStatusError =>
  failure(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qualifiedResource(t)}"`, {
    group: t.group,
    kind: t.plural,
  });

export const methodNotAllowedBecause = (message: string): ApiStatusError => failure(405, 'MethodNotAllowed', message);

export const notAcceptable = (accepted: string[]): ApiStatusError =>
  failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);

export const expired = (message: string): ApiStatusError => failure(410, 'Expired', message);

export const tooLarge = (message: string): ApiStatusError => failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);

export const unsupportedMediaType = (message: string): ApiStatusError => failure(415, 'UnsupportedMediaType', message);

export const timeout = (message: string, retryAfterSeconds: number, causes?: FieldCause[]): ApiStatusError =>
  failure(504, 'Timeout', `Timeout: ${message}`, { retryAfterSeconds, ...(causes ? { causes } : {}) });

/** A conversion that failed: kube-apiserver passes the converter's error on as a 500 without a reason. */
export const conversionFailed = (message: string): ApiStatusError => failure(500, '', message);

/** The error itself is also the one cause, as apimachinery's `NewInternalError` reports it. */
export const internalError = (message: string): ApiStatusError =>
  failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });

/** A ready `Status` for an immediate delete of a kind that does not answer with the deleted object. */
export function successStatus(t: Target, name: string, uid: string | undefined): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name, group: t.group, kind: t.plural, ...(uid ? { uid } : {}) },
  };
}
