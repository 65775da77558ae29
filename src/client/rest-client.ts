/**
 * The HTTP implementation of `Client`: resource operations addressed by descriptor, over one
 * `Transport`. It builds paths and query parameters, serialises bodies and decodes answers; errors,
 * retries and rate limiting belong to the transport. Invariant: it never changes the caller's objects
 * and never caches — every call is one API request (plus the transport's documented retries).
 */
import {
  InvalidOptionError,
  realClock,
  type Clock,
  type KubeList,
  type KubeObject,
  type NamespacedName,
  type ResourceDescriptor,
  type Status,
} from '../meta/index.js';
import {
  isMetadataOnly,
  PARTIAL_OBJECT_METADATA_ACCEPT,
  PARTIAL_OBJECT_METADATA_LIST_ACCEPT,
  toPartialObjectMetadata,
  toPartialObjectMetadataList,
} from './metadata-only.js';
import type { RestConfig } from './rest-config.js';
import { listQuery, queryString, resourcePath, writeQuery } from './resource-path.js';
import { ListDecoder } from './list-decoder.js';
import { Transport, type RequestMetric, type TransportRequest } from './transport.js';
import {
  PATCH_CONTENT_TYPES,
  type Client,
  type DeleteOptions,
  type ListOptions,
  type PatchOptions,
  type PatchType,
  type RequestOptions,
  type UpdateOptions,
  type WatchOptions,
  type WatchStream,
  type WriteOptions,
} from './types.js';
import { HttpWatchStream } from './watch-stream.js';

/** Options of `createClient`: the `RestConfig` to reach the server with, plus rate limits, retries, the clock and a hook called once per request. */
export interface CreateClientOptions {
  /** A resolved config (`loadKubeConfig()`, `inClusterConfig()`); or give `server` alone. */
  config?: RestConfig;
  /** A bare server URL without auth, e.g. a local API server in tests. Ignored when `config` is given. */
  server?: string;
  /** Overrides of the config's rate limit (`qps: -1` disables it). */
  qps?: number;
  burst?: number;
  /** Retries after 429 or transient connection errors (default 10). */
  maxRetries?: number;
  clock?: Clock;
  /** Called once per HTTP attempt, for `rest_client_requests_total` and latency metrics. */
  onRequest?: (m: RequestMetric) => void;
}

/** A `Client` over HTTP, plus the raw transport for discovery and a way to free its sockets. */
export interface RestClient extends Client {
  readonly config: RestConfig;
  readonly transport: Transport;
  /** POSTs `body` to a subresource of an object (`pods/eviction`, `serviceaccounts/token`, …). */
  createSubresource<R extends KubeObject = KubeObject>(
    r: ResourceDescriptor<KubeObject>,
    nn: NamespacedName,
    subresource: string,
    body: KubeObject,
    o?: WriteOptions,
  ): Promise<R>;
  /** Frees pooled keep-alive sockets. */
  close(): void;
}

/** Creates the HTTP `Client` for one API server and identity, from a `RestConfig`. */
export function createClient(options: CreateClientOptions): RestClient {
  const base: RestConfig | undefined = options.config ?? (options.server !== undefined ? { server: options.server } : undefined);
  if (!base) throw new InvalidOptionError('config', 'give a RestConfig (config) or a server URL (server)');
  const config: RestConfig = { ...base, qps: options.qps ?? base.qps, burst: options.burst ?? base.burst };
  const clock = options.clock ?? realClock;
  const transport = new Transport({ config, clock, maxRetries: options.maxRetries, onRequest: options.onRequest });
  return new HttpClient(config, transport, clock);
}

const jsonBody = (v: unknown): string => JSON.stringify(v);

function transportRequest({ method, path, signal, body, contentType, accept }: JsonCall): TransportRequest {
  return {
    method,
    path,
    signal,
    body: body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : jsonBody(body),
    contentType,
    accept,
  };
}

interface JsonCall {
  method: string;
  path: string;
  signal: AbortSignal | undefined;
  body?: unknown | undefined;
  contentType?: string | undefined;
  accept?: string | undefined;
}

/** Metadata-only descriptors cannot write whole objects: there is no whole object to send. */
function refuseMetadataOnly(r: ResourceDescriptor<KubeObject>, verb: string): void {
  if (isMetadataOnly(r))
    throw new InvalidOptionError('resource', `${verb} needs the full ${r.kind} descriptor, not its metadata-only view`);
}

/** A single-object answer through a metadata-only descriptor, projected; a `Status` passes through. */
function projectObject<R>(r: ResourceDescriptor<KubeObject>, obj: R): R {
  if (!isMetadataOnly(r) || (obj as KubeObject).kind === 'Status') return obj;
  return toPartialObjectMetadata(obj as KubeObject) as R;
}

function nameOf(obj: KubeObject, what: string): string {
  const name = obj.metadata?.name;
  if (!name) throw new InvalidOptionError('metadata.name', `${what} needs an object with a name`);
  return name;
}

class HttpClient implements RestClient {
  constructor(
    readonly config: RestConfig,
    readonly transport: Transport,
    readonly clock: Clock,
  ) {}

  close(): void {
    this.transport.close();
  }

  async #json<R>(call: JsonCall): Promise<R> {
    const res = await this.transport.request(transportRequest(call));
    return JSON.parse(res.body) as R;
  }

  /** A list answer, decoded item by item as its bytes arrive (never as one string); a `Status` is returned as is. */
  #listJson<R>(call: JsonCall): Promise<R> {
    return this.transport.requestDecoded(transportRequest(call), new ListDecoder<R & object>());
  }

  /** The Accept header of a single-object answer through `r`. */
  #objectAccept(r: ResourceDescriptor<KubeObject>): string | undefined {
    return isMetadataOnly(r) ? PARTIAL_OBJECT_METADATA_ACCEPT : undefined;
  }

  async get<T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName, o?: RequestOptions & { subresource?: string }): Promise<T> {
    const path = resourcePath(r, { namespace: nn.namespace, name: nn.name, subresource: o?.subresource });
    return projectObject(r, await this.#json<T>({ method: 'GET', path, signal: o?.signal, accept: this.#objectAccept(r) }));
  }

  async list<T extends KubeObject>(r: ResourceDescriptor<T>, o?: ListOptions): Promise<KubeList<T>> {
    const q = queryString({ ...listQuery(o), limit: o?.limit, continue: o?.continue });
    return this.#listCall(r, { method: 'GET', path: resourcePath(r, { namespace: o?.namespace }) + q, signal: o?.signal });
  }

  /** A list answer (or a `Status`) through `r`, projected when `r` is metadata-only. */
  async #listCall<R>(r: ResourceDescriptor<KubeObject>, call: JsonCall): Promise<R> {
    if (!isMetadataOnly(r)) return this.#listJson<R>(call);
    const answer = await this.#listJson<KubeList<KubeObject> | Status>({ ...call, accept: PARTIAL_OBJECT_METADATA_LIST_ACCEPT });
    return (answer.kind === 'Status' ? answer : toPartialObjectMetadataList(answer as KubeList<KubeObject>)) as R;
  }

  async watch<T extends KubeObject>(r: ResourceDescriptor<T>, o?: WatchOptions): Promise<WatchStream<T>> {
    const q = queryString({
      watch: 'true',
      ...listQuery(o),
      allowWatchBookmarks: o?.allowWatchBookmarks,
      sendInitialEvents: o?.sendInitialEvents,
      timeoutSeconds: o?.timeoutSeconds,
    });
    const path = resourcePath(r, { namespace: o?.namespace }) + q;
    const streaming = await this.transport.stream({ method: 'GET', path, signal: o?.signal, accept: this.#objectAccept(r) });
    return new HttpWatchStream<T>(streaming, {
      clock: this.clock,
      inactivityTimeoutMs: o?.inactivityTimeoutMs,
      signal: o?.signal,
      project: isMetadataOnly(r) ? (obj) => toPartialObjectMetadata(obj) as KubeObject as T : undefined,
    });
  }

  async create<T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: WriteOptions): Promise<T> {
    refuseMetadataOnly(r, 'create');
    const path = resourcePath(r, { namespace: this.#namespaceOf(r, obj) }) + queryString(writeQuery(o));
    return this.#json({ method: 'POST', path, signal: o?.signal, body: obj });
  }

  async update<T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: UpdateOptions): Promise<T> {
    refuseMetadataOnly(r, 'update');
    const path = resourcePath(r, { namespace: this.#namespaceOf(r, obj), name: nameOf(obj, 'update'), subresource: o?.subresource });
    return this.#json({ method: 'PUT', path: path + queryString(writeQuery(o)), signal: o?.signal, body: obj });
  }

  async updateStatus<T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: WriteOptions): Promise<T> {
    return this.update(r, obj, { ...o, subresource: 'status' });
  }

  async createSubresource<R extends KubeObject = KubeObject>(
    r: ResourceDescriptor<KubeObject>,
    nn: NamespacedName,
    subresource: string,
    body: KubeObject,
    o?: WriteOptions,
  ): Promise<R> {
    refuseMetadataOnly(r, 'createSubresource');
    const path = resourcePath(r, { namespace: nn.namespace, name: nn.name, subresource });
    return this.#json({ method: 'POST', path: path + queryString(writeQuery(o)), signal: o?.signal, body });
  }

  async patch<T extends KubeObject>(
    r: ResourceDescriptor<T>,
    nn: NamespacedName,
    patch: unknown,
    type: PatchType,
    o?: PatchOptions,
  ): Promise<T> {
    const path = resourcePath(r, { namespace: nn.namespace, name: nn.name, subresource: o?.subresource });
    const q = queryString({ ...writeQuery(o), force: o?.force });
    const call = {
      method: 'PATCH',
      path: path + q,
      signal: o?.signal,
      body: patch,
      contentType: PATCH_CONTENT_TYPES[type],
      accept: this.#objectAccept(r),
    };
    return projectObject(r, await this.#json<T>(call));
  }

  async delete<T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName, o?: DeleteOptions): Promise<T | Status> {
    const path = resourcePath(r, { namespace: nn.namespace, name: nn.name }) + queryString({ dryRun: o?.dryRun ? 'All' : undefined });
    return projectObject(
      r,
      await this.#json<T | Status>({ method: 'DELETE', path, signal: o?.signal, body: deleteBody(o), accept: this.#objectAccept(r) }),
    );
  }

  async deleteCollection<T extends KubeObject>(r: ResourceDescriptor<T>, o?: ListOptions & DeleteOptions): Promise<KubeList<T> | Status> {
    const q = queryString({ ...listQuery(o), limit: o?.limit, continue: o?.continue, dryRun: o?.dryRun ? 'All' : undefined });
    return this.#listCall(r, {
      method: 'DELETE',
      path: resourcePath(r, { namespace: o?.namespace }) + q,
      signal: o?.signal,
      body: deleteBody(o),
    });
  }

  #namespaceOf(r: ResourceDescriptor<KubeObject>, obj: KubeObject): string | undefined {
    if (!r.namespaced) return undefined;
    const ns = obj.metadata?.namespace;
    if (!ns) throw new InvalidOptionError('metadata.namespace', `required for the namespaced kind ${r.kind}`);
    return ns;
  }
}

/** The DeleteOptions body; omitted when no option is set. */
function deleteBody(o: DeleteOptions | undefined): object | undefined {
  if (!o) return undefined;
  const body: Record<string, unknown> = {};
  if (o.propagationPolicy !== undefined) body['propagationPolicy'] = o.propagationPolicy;
  if (o.gracePeriodSeconds !== undefined) body['gracePeriodSeconds'] = o.gracePeriodSeconds;
  if (o.preconditions !== undefined) body['preconditions'] = o.preconditions;
  if (o.dryRun) body['dryRun'] = ['All'];
  if (Object.keys(body).length === 0) return undefined;
  return { apiVersion: 'v1', kind: 'DeleteOptions', ...body };
}
