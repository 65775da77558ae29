/**
 * Typed client errors. Every non-2xx answer becomes a `StatusError` carrying the server's `Status`
 * (a Status is synthesised when the body is not one, e.g. a plain-text `404 page not found`), so
 * callers branch on `reason`, never on message text. Failures below HTTP are `NetworkError`s naming
 * the method and URL; kubeconfig and watch-decoding problems have their own codes. The `is*` helpers
 * accept a `StatusError` or a bare `Status` (the object of a watch ERROR event) alike.
 */
import { ConvergeError, type Status } from '../meta/index.js';

/** A non-2xx answer from the API server; `status` is the server's Status (or one built from the response). */
export class StatusError extends ConvergeError {
  readonly code = 'CONVERGE_API_STATUS';
  override readonly name = 'StatusError';
  constructor(
    readonly status: Status,
    options?: { cause?: unknown },
  ) {
    super(`${status.code ?? 0} ${status.reason || 'Unknown'}: ${status.message ?? ''}`, options);
  }
}

/** The request never got an HTTP answer (connection refused/reset, timeout, half-open watch…). */
export class NetworkError extends ConvergeError {
  readonly code = 'CONVERGE_NETWORK';
  override readonly name = 'NetworkError';
  constructor(
    readonly method: string,
    readonly url: string,
    cause: unknown,
  ) {
    super(`${method} ${url}: ${describeCause(cause)}`, { cause });
  }
}

/** A kubeconfig (or in-cluster config, or exec plugin) could not be turned into a working config. */
export class KubeConfigError extends ConvergeError {
  readonly code = 'CONVERGE_KUBECONFIG';
  override readonly name = 'KubeConfigError';
  constructor(
    readonly file: string | undefined,
    readonly context: string | undefined,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`kubeconfig ${file ?? '<none>'}${context === undefined ? '' : ` context ${JSON.stringify(context)}`}: ${reason}`, options);
  }
}

/** A watch stream carried a line that is not a watch event. `linePrefix` holds its first bytes. */
export class WatchDecodeError extends ConvergeError {
  readonly code = 'CONVERGE_WATCH_DECODE';
  override readonly name = 'WatchDecodeError';
  constructor(
    readonly linePrefix: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`malformed watch event (${reason}): ${JSON.stringify(linePrefix)}`, options);
  }
}

/** A list response that is not a well-formed list; `where` names the part (`body`, `items`, `items[3]`). */
export class ListDecodeError extends ConvergeError {
  readonly code = 'CONVERGE_LIST_DECODE';
  override readonly name = 'ListDecodeError';
  constructor(
    readonly where: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`malformed list response at ${where}: ${reason}`, options);
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code && !cause.message.includes(code) ? `${code} ${cause.message}` : cause.message;
  }
  return String(cause);
}

/** The reason a code implies when the body is not a Status (as client-go's generic server response). */
const REASON_BY_CODE: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** Builds the error for a non-2xx response: the body's Status when it is one, else a synthesised Status. */
export function statusErrorFromResponse(code: number, body: string, retryAfterSeconds?: number): StatusError {
  let parsed: unknown;
  try {
    parsed = body ? JSON.parse(body) : undefined;
  } catch {
    parsed = undefined;
  }
  if (isStatusObject(parsed)) {
    const status = parsed.code === undefined ? { ...parsed, code } : parsed;
    return new StatusError(status);
  }
  const text = body.trim();
  const status: Status = {
    apiVersion: 'v1',
    kind: 'Status',
    metadata: {},
    status: 'Failure',
    code,
    reason: REASON_BY_CODE[code] ?? '',
    message: text ? `the server responded with ${code}: ${text.slice(0, 512)}` : `the server responded with ${code}`,
  };
  if (retryAfterSeconds !== undefined) status.details = { retryAfterSeconds };
  return new StatusError(status);
}

/** True for a value shaped like a `Status` (what watch ERROR events and error bodies carry). */
export function isStatusObject(v: unknown): v is Status {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'Status';
}

/** The Status inside a StatusError, or the value itself when it is a Status; otherwise undefined. */
export function statusOf(err: unknown): Status | undefined {
  if (err instanceof StatusError) return err.status;
  if (isStatusObject(err)) return err;
  return undefined;
}

const hasReason = (err: unknown, reason: string, code?: number): boolean => {
  const s = statusOf(err);
  if (!s) return false;
  return s.reason === reason || (code !== undefined && !s.reason && s.code === code);
};

/** True when the server answered `NotFound` (or a bare 404): the object does not exist. */
export const isNotFound = (err: unknown): boolean => hasReason(err, 'NotFound', 404);
/** True when a create failed because an object of that name already exists. */
export const isAlreadyExists = (err: unknown): boolean => hasReason(err, 'AlreadyExists');
/** True for a 409 `Conflict`: usually a stale resourceVersion on update, so re-read and retry. */
export const isConflict = (err: unknown): boolean => hasReason(err, 'Conflict', 409);
/** True for a 422 `Invalid`: the object failed validation, and sending it again will not help. */
export const isInvalid = (err: unknown): boolean => hasReason(err, 'Invalid', 422);
/** True for a 429 `TooManyRequests`: the server asks the client to slow down. */
export const isTooManyRequests = (err: unknown): boolean => hasReason(err, 'TooManyRequests', 429);
/** True for a 403 `Forbidden`: the identity is known but not allowed to do this. */
export const isForbidden = (err: unknown): boolean => hasReason(err, 'Forbidden', 403);
/** True for a 401 `Unauthorized`: the server did not accept the credentials. */
export const isUnauthorized = (err: unknown): boolean => hasReason(err, 'Unauthorized', 401);
/** True when the server reports `ServerTimeout`: it could not finish the request in time and it may be retried. */
export const isServerTimeout = (err: unknown): boolean => hasReason(err, 'ServerTimeout');
/** A 504 or a `Timeout` reason (the server gave up waiting, e.g. for a too-large resourceVersion). */
export const isTimeout = (err: unknown): boolean => hasReason(err, 'Timeout', 504);

/**
 * True for any 410: the server says `Expired` for a too-old resourceVersion or continue token and
 * `Gone` generically; a reflector relists on either. Works on a watch ERROR event's object too.
 */
export const isGone = (err: unknown): boolean => {
  const s = statusOf(err);
  return s !== undefined && (s.code === 410 || s.reason === 'Gone' || s.reason === 'Expired');
};

/** Same answer as `isGone` (client-go's `IsResourceExpired`, widened to every 410). */
export const isResourceExpired = isGone;

/**
 * controller-runtime's `client.IgnoreNotFound`, shaped for a promise's `catch`: a NotFound becomes
 * `undefined`, anything else is rethrown unchanged. `await client.delete(r, key).catch(ignoreNotFound)`.
 */
export function ignoreNotFound(err: unknown): undefined {
  if (isNotFound(err)) return undefined;
  throw err;
}

/** `ignoreNotFound` for AlreadyExists: `await client.create(r, obj).catch(ignoreAlreadyExists)`. */
export function ignoreAlreadyExists(err: unknown): undefined {
  if (isAlreadyExists(err)) return undefined;
  throw err;
}
