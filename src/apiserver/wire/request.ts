/**
 * The server's own request and response: a small, socket-free shape that the core handles and that
 * adapters (the `node:http` one, or a test calling `handle()` directly) translate to and from. A
 * response either carries a whole `body` or a `stream` of newline-terminated chunks (watches).
 * Invariant: header names are lower case on both sides.
 */
import type { UserInfo } from '../ground/index.js';

/** One request as the core sees it: method, path with query, lower-case headers, body, and who sent it. @extension */
export interface ApiRequest {
  method: string;
  /** Path, optionally followed by `?query`. */
  path: string;
  /** Lower-case header names. */
  headers?: Record<string, string | string[] | undefined>;
  body?: string | Uint8Array | undefined;
  /** Who sent it, as the socket's authentication found; absent for a trusted in-process caller. */
  user?: UserInfo;
}

/** Where a stream writes; `write` returns false when the receiver is not keeping up (back-pressure). */
export interface StreamSink {
  write(chunk: string): boolean;
  end(): void;
}

/** A streamed response body: the adapter attaches a sink once the head is sent, and detaches on disconnect. */
export interface ResponseStream {
  attach(sink: StreamSink): void;
  /** The sink has flushed what it buffered (the socket's `drain`). */
  drained(): void;
  /** The receiver went away; free everything. */
  detach(): void;
}

/** What the core answers: a whole `body` (or `bytes`), or a `stream` for watches; header names are lower case. @extension */
export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
  /** Binary documents (the protobuf OpenAPI v2) come as bytes instead of `body`. */
  bytes?: Uint8Array;
  stream?: ResponseStream;
}

/** Reads one header as a single string (joining repeated values with `, `). */
export function headerOf(req: ApiRequest, name: string): string | undefined {
  const v = req.headers?.[name];
  return Array.isArray(v) ? v.join(', ') : v;
}
