/**
 * Response compression as kube-apiserver applies it (the APIResponseCompression feature, on by
 * default): a whole response body longer than 128 KiB, answering a request whose `Accept-Encoding`
 * lists `gzip` as one of its comma-separated tokens (exactly `gzip`: `gzip;q=1` is not it, as Go's
 * check reads it), is sent gzip-compressed at level 1 with `content-encoding: gzip` and
 * `vary: accept-encoding`. Shorter bodies, watch streams and the OpenAPI documents (served by
 * kube-openapi's own handler there, which does not compress) are sent as they are. Compression
 * runs off the event loop's thread, so a large list does not stall other requests.
 *
 * https://github.com/kubernetes/apiserver/blob/master/pkg/endpoints/handlers/responsewriters/writers.go
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { ApiResponse } from '../wire/index.js';

/** kube-apiserver's `defaultGzipThresholdBytes`: bodies longer than this are compressed when asked. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

const gzipAsync = promisify(gzip);

/** Whether an `Accept-Encoding` header asks for gzip, token by token as kube-apiserver reads it. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return acceptEncoding !== undefined && acceptEncoding.split(',').some((token) => token.trim() === 'gzip');
}

/** `r` compressed for a request to `path` with `acceptEncoding`, or `r` itself when it is not to be. */
export async function compressResponse(r: ApiResponse, path: string, acceptEncoding: string | undefined): Promise<ApiResponse> {
  if (r.stream !== undefined || r.bytes !== undefined || !acceptsGzip(acceptEncoding) || path.startsWith('/openapi/')) return r;
  const body = Buffer.from(r.body);
  if (body.length <= GZIP_THRESHOLD_BYTES) return r;
  const bytes = await gzipAsync(body, { level: 1 });
  return { ...r, headers: { ...r.headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding' }, bytes };
}
