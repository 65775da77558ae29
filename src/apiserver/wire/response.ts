/**
 * Building responses: JSON bodies (with a per-object memo, since stored objects never change and the
 * same object is often served many times), plain text, and `Status` bodies. The only place that
 * turns an `ApiStatusError` into bytes, so every error body has the same shape. Every JSON body ends
 * with a newline, as Go's JSON encoder ends each document kube-apiserver writes.
 */
import type { KubeObject, Status } from '../../meta/index.js';
import type { ApiResponse } from './request.js';
import { goJson } from './go-json-string.js';
import { ApiStatusError, internalError } from '../ground/index.js';
import { statusJson } from './status-json.js';

const JSON_TYPE = 'application/json';
const memo = new WeakMap<object, string>();

/** JSON text (as Go writes it) of an object that will not change again (stored objects), computed once. */
export function frozenJson(obj: KubeObject): string {
  let s = memo.get(obj);
  if (s === undefined) {
    s = goJson(JSON.stringify(obj));
    memo.set(obj, s);
  }
  return s;
}

/** `body` is JSON text already written as Go writes it, or a value to write so. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string | string[]> = {}): ApiResponse {
  const text = typeof body === 'string' ? body : goJson(JSON.stringify(body));
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: `${text}\n` };
}

export function textResponse(status: number, body: string): ApiResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body };
}

/** A `Status` body, sent with HTTP status `httpCode` (its own `code` unless given: a success Status may carry none). */
export function statusResponse(status: Status, httpCode = status.code ?? 500): ApiResponse {
  const headers: Record<string, string> = {};
  const retry = status.details?.retryAfterSeconds;
  if (retry) headers['retry-after'] = String(retry);
  return jsonResponse(httpCode, statusJson(status), headers);
}

/** Any thrown value as a response: Status errors as they are, anything else as a 500 InternalError. */
export function errorResponse(err: unknown): ApiResponse {
  if (err instanceof ApiStatusError) return statusResponse(err.status);
  const message = err instanceof Error ? err.message : String(err);
  return statusResponse(internalError(message).status);
}
