/**
 * The response of a successful write: the object in the negotiated form plus one `Warning` header
 * per warning the strategy raised (`299 - "<text>"`).
 */
import type { Scope } from '../registry/index.js';
import { negotiateOutput } from '../wire/index.js';
import { renderObject } from './render.js';
import { headerOf, type ApiResponse } from '../wire/index.js';
import { jsonResponse } from '../wire/index.js';
import type { WriteResult } from './write-pipeline.js';
import { withViews } from './webhook-conversion.js';

export function warningHeaders(warnings: string[]): Record<string, string[]> {
  return warnings.length > 0 ? { warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`) } : {};
}

/** The written object in the request's version (converted back by the CRD's webhook where it converts). */
export function objectResponse(scope: Scope, r: WriteResult): ApiResponse | Promise<ApiResponse> {
  const form = negotiateOutput(headerOf(scope.req, 'accept'), scope.query.get('includeObject'));
  return withViews(scope, [r.object], () => jsonResponse(r.status, renderObject(scope, form, r.object), warningHeaders(r.warnings)));
}
