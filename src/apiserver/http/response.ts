/**
 * Building responses: JSON bodies (with a per-object memo, since stored objects never change and the
 * same object is often served many times), plain text, and `Status` failures. The only place that
 * turns an `ApiStatusError` into bytes, so every error body has the same shape.
 */
import type { KubeObject, Status } from '../../meta/index.js';
import type { ApiResponse } from './request.js';
import { ApiStatusError, internalError } from './status.js';

const JSON_TYPE = 'application/json';
const memo = new WeakMap<object, string>();

/** JSON text of an object that will not change again (stored objects), computed once. */
export function frozenJson(obj: KubeObject): string {
  let s = memo.get(obj);
  if (s === undefined) {
    s = JSON.stringify(obj);
    memo.set(obj, s);
  }
  return s;
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string | string[]> = {}): ApiResponse {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

export function textResponse(status: number, body: string): ApiResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body };
}

export function statusResponse(status: Status & { code?: number }): ApiResponse {
  const headers: Record<string, string> = {};
  const retry = status.details?.retryAfterSeconds;
  if (retry !== undefined) headers['retry-after'] = String(retry);
  return jsonResponse(status.code ?? 500, status, headers);
}

/** Any thrown value as a response: Status errors as they are, anything else as a 500 InternalError. */
export function errorResponse(err: unknown): ApiResponse {
  if (err instanceof ApiStatusError) return statusResponse(err.status);
  const message = err instanceof Error ? err.message : String(err);
  return statusResponse(internalError(message).status);
}
