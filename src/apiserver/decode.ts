/**
 * Decoding request bodies: JSON, or YAML when the Content-Type says so, into a plain object. Any
 * failure is a 400 with a message that says what was wrong, never an exception that escapes.
 */
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../meta/index.js';
import { headerOf, type ApiRequest } from './request.js';
import { badRequest, unsupportedMediaType } from './status.js';

export function bodyText(req: ApiRequest): string {
  const b = req.body;
  if (b === undefined) return '';
  return typeof b === 'string' ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
}

export function mediaType(req: ApiRequest): string {
  return (headerOf(req, 'content-type') ?? 'application/json').split(';')[0]!.trim().toLowerCase();
}

/** Parses JSON or YAML text; `what` names the thing in the error message. */
export function parseDocument(text: string, yaml: boolean, what: string): unknown {
  try {
    return yaml ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw badRequest(`the body of the request was not valid ${yaml ? 'YAML' : 'JSON'} (${what}): ${(e as Error).message}`);
  }
}

/** The request body as a Kubernetes object (JSON or YAML per Content-Type). */
export function decodeObject(req: ApiRequest): KubeObject {
  const text = bodyText(req);
  if (text.trim() === '') throw badRequest('the body of the request was empty: expected a Kubernetes object');
  const t = mediaType(req);
  const yaml = t === 'application/yaml' || t === 'application/x-yaml' || t === 'text/yaml';
  if (!yaml && t !== 'application/json' && t !== '*/*') {
    throw unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`);
  }
  const v = parseDocument(text, yaml, 'object');
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw badRequest('the body of the request must be a JSON object');
  const obj = v as KubeObject;
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  else if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata)) throw badRequest('metadata must be an object');
  return obj;
}
