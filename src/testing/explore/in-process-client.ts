/**
 * A `Client` that hands each call straight to the API server's `handle()`, with no socket between
 * them: the explorer's way to the server. Without HTTP on loopback a schedule's requests and watch
 * events are plain promises and callbacks, so "nothing is in flight" can be known exactly (no real
 * time has to pass for bytes to arrive) and a run costs only the work of the operator and the server.
 * The HTTP client and server are tested elsewhere; the explorer looks for bugs in the operator's logic.
 * Invariant: every non-2xx answer rejects with a `StatusError` carrying the server's `Status`, as the
 * HTTP client does; a watch's events arrive in the order the server sent them, and `close()` detaches
 * it from the server at once.
 */
import { InvalidOptionError, type KubeObject, type ResourceDescriptor, type Status } from '../../meta/index.js';
import { StatusError, type Client, type PatchType, type WatchEvent, type WatchOptions, type WatchStream } from '../../client/index.js';
import { isMetadataOnly } from '../../client/internal.js';
import { listQuery, queryString, resourcePath, writeQuery } from '../../client/internal.js';
import type { RunningApiServer } from '../../apiserver/index.js';
import type { ApiResponse } from '../../apiserver/internal.js';

type Handle = RunningApiServer['handle'];

const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** A `Client` of `server` in the same process; metadata-only descriptors are refused (the explorer's operators need none). */
export function inProcessClient(server: { handle: Handle }): Client {
  const call = async <R>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<R> => {
    const res = await server.handle({
      method,
      path,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': contentType }) },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    if (res.status < 200 || res.status > 299) throw statusError(res);
    return JSON.parse(res.body) as R;
  };
  return {
    get: (r, nn, o) => call('GET', pathOf(r, nn.namespace, nn.name, o?.subresource)),
    list: (r, o) => call('GET', pathOf(r, o?.namespace) + queryString({ ...listQuery(o), limit: o?.limit, continue: o?.continue })),
    create: (r, obj, o) => call('POST', pathOf(r, namespaceOf(r, obj)) + queryString(writeQuery(o)), obj),
    update: (r, obj, o) => call('PUT', pathOf(r, namespaceOf(r, obj), nameOf(obj), o?.subresource) + queryString(writeQuery(o)), obj),
    updateStatus: (r, obj, o) => call('PUT', pathOf(r, namespaceOf(r, obj), nameOf(obj), 'status') + queryString(writeQuery(o)), obj),
    patch: (r, nn, patch, type, o) =>
      call(
        'PATCH',
        pathOf(r, nn.namespace, nn.name, o?.subresource) + queryString({ ...writeQuery(o), force: o?.force }),
        patch,
        PATCH_CONTENT_TYPES[type],
      ),
    delete: (r, nn, o) =>
      call('DELETE', pathOf(r, nn.namespace, nn.name) + queryString({ dryRun: o?.dryRun ? 'All' : undefined }), deleteBody(o)),
    deleteCollection: (r, o) =>
      call('DELETE', pathOf(r, o?.namespace) + queryString({ ...listQuery(o), dryRun: o?.dryRun ? 'All' : undefined }), deleteBody(o)),
    async watch<T extends KubeObject>(r: ResourceDescriptor<T>, o?: WatchOptions): Promise<WatchStream<T>> {
      const query = {
        watch: 'true',
        ...listQuery(o),
        allowWatchBookmarks: o?.allowWatchBookmarks,
        sendInitialEvents: o?.sendInitialEvents,
        timeoutSeconds: o?.timeoutSeconds,
      };
      const res = await server.handle({
        method: 'GET',
        path: pathOf(r, o?.namespace) + queryString(query),
        headers: { accept: 'application/json' },
      });
      if (res.status !== 200 || !res.stream) throw statusError(res);
      return watchStream<T>(res.stream, o?.signal);
    },
  };
}

/** The events a server stream writes (newline-terminated JSON lines), as a `WatchStream`. */
function watchStream<T extends KubeObject>(stream: NonNullable<ApiResponse['stream']>, signal: AbortSignal | undefined): WatchStream<T> {
  const events: WatchEvent<T>[] = [];
  let partial = '';
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const end = (): void => {
    if (ended) return;
    ended = true;
    stream.detach();
    signal?.removeEventListener('abort', end);
    notify();
  };
  stream.attach({
    write(chunk) {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) if (line.trim()) events.push(JSON.parse(line) as WatchEvent<T>);
      notify();
      return true;
    },
    end,
  });
  if (signal?.aborted) end();
  else signal?.addEventListener('abort', end);
  return {
    close: end,
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          if (events.length > 0) yield events.shift()!;
          else if (ended) return;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        end();
      }
    },
  };
}

function statusError(res: ApiResponse): StatusError {
  let status: Status | undefined;
  try {
    status = JSON.parse(res.body) as Status;
  } catch {
    status = undefined;
  }
  if (status?.kind !== 'Status') {
    status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: res.status, message: res.body.slice(0, 512) };
  }
  return new StatusError({ ...status, code: status.code ?? res.status });
}

function pathOf(r: ResourceDescriptor<KubeObject>, namespace?: string, name?: string, subresource?: string): string {
  if (isMetadataOnly(r))
    throw new InvalidOptionError('resource', `the explorer's client needs the full ${r.kind} descriptor, not its metadata-only view`);
  return resourcePath(r, { namespace, name, subresource });
}

function namespaceOf(r: ResourceDescriptor<KubeObject>, obj: KubeObject): string | undefined {
  if (!r.namespaced) return undefined;
  const ns = obj.metadata?.namespace;
  if (!ns) throw new InvalidOptionError('metadata.namespace', `required for the namespaced kind ${r.kind}`);
  return ns;
}

function nameOf(obj: KubeObject): string {
  const name = obj.metadata?.name;
  if (!name) throw new InvalidOptionError('metadata.name', 'an update needs an object with a name');
  return name;
}

/** The DeleteOptions body, or undefined when no option is set. */
function deleteBody(
  o:
    | {
        propagationPolicy?: string | undefined;
        gracePeriodSeconds?: number | undefined;
        preconditions?: object | undefined;
        dryRun?: boolean | undefined;
      }
    | undefined,
) {
  if (!o) return undefined;
  const body: Record<string, unknown> = {};
  if (o.propagationPolicy !== undefined) body['propagationPolicy'] = o.propagationPolicy;
  if (o.gracePeriodSeconds !== undefined) body['gracePeriodSeconds'] = o.gracePeriodSeconds;
  if (o.preconditions !== undefined) body['preconditions'] = o.preconditions;
  if (o.dryRun) body['dryRun'] = ['All'];
  return Object.keys(body).length === 0 ? undefined : { apiVersion: 'v1', kind: 'DeleteOptions', ...body };
}
