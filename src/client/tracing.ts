/**
 * Request tracing with `@opentelemetry/api`: one CLIENT span per API request (retries included),
 * named by its method, with the path, the server and the answer's status code, in the span of
 * whoever made the request (a reconcile, when a controller's reconciler calls the client). Writes
 * carry `converge.write`, so "what did this reconcile change" is one filter away.
 *
 * Invariant: with no SDK registered the request runs as it would without tracing (one no-op span,
 * no attributes, no context switch); a traced request's result and error are passed on unchanged.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('kube-converge/client');

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The status code of a rejected request, when the server answered. */
function statusOf(err: unknown): number | undefined {
  const code = (err as { status?: { code?: unknown } } | null)?.status?.code;
  return typeof code === 'number' ? code : undefined;
}

/** Runs `send` (one request to `server`, with retries) inside a span; `statusOf` reads the answer's status code. */
export async function traceRequest<R extends { statusCode: number } | { res: { statusCode?: number | undefined } }>(
  server: URL,
  method: string,
  path: string,
  send: () => Promise<R>,
): Promise<R> {
  const span = tracer.startSpan(method, { kind: SpanKind.CLIENT });
  if (!span.isRecording()) return send();
  const query = path.indexOf('?');
  span.setAttributes({
    'http.request.method': method,
    'url.path': query < 0 ? path : path.slice(0, query),
    'server.address': server.hostname,
    'server.port': Number(server.port || (server.protocol === 'https:' ? 443 : 80)),
    'converge.write': !READS.has(method),
  });
  if (query >= 0) span.setAttribute('url.query', path.slice(query + 1));
  try {
    const out = await send();
    span.setAttribute('http.response.status_code', 'statusCode' in out ? out.statusCode : (out.res.statusCode ?? 0));
    return out;
  } catch (err) {
    const code = statusOf(err);
    if (code !== undefined) span.setAttribute('http.response.status_code', code);
    span.setAttribute('error.type', code !== undefined ? String(code) : err instanceof Error ? err.name : 'Error');
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    span.end();
  }
}
