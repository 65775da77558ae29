/**
 * The HTTP implementation of `Client`: resource operations addressed by descriptor, over one
 * `Transport`. It builds paths and query parameters, serialises bodies and decodes answers; errors,
 * retries and rate limiting belong to the transport. Invariant: it never changes the caller's objects
 * and never caches — every call is one API request (plus the transport's documented retries).
 */
import { InvalidOptionError, realClock, type Clock, type KubeList, type KubeObject, type NamespacedName, type ResourceDescriptor, type Status } from '../meta/index.js';
import type { RestConfig } from './rest-config.js';
import { queryString, resourcePath } from './resource-path.js';
import { Transport, type RequestMetric } from './transport.js';
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

export function createClient(options: CreateClientOptions): RestClient {
  const base: RestConfig | undefined = options.config ?? (options.server !== undefined ? { server: options.server } : undefined);
  if (!base) throw new InvalidOptionError('config', 'give a RestConfig (config) or a server URL (server)');
  const config: RestConfig = { ...base, qps: options.qps ?? base.qps, burst: options.burst ?? base.burst };
  const clock = options.clock ?? realClock;
  const transport = new Transport({ config, clock, maxRetries: options.maxRetries, onRequest: options.onRequest });
  return new HttpClient(config, transport, clock);
}

const jsonBody = (v: unknown): string => JSON.stringify(v);

function writeQuery(o: WriteOptions | undefined): Record<string, string | undefined> {
  return { dryRun: o?.dryRun ? 'All' : undefined, fieldManager: o?.fieldManager, fieldValidation: o?.fieldValidation };
}

function listQuery(o: ListOptions | WatchOptions | undefined): Record<string, string | number | boolean | undefined> {
  return {
    labelSelector: o?.labelSelector,
    fieldSelector: o?.fieldSelector,
    resourceVersion: o?.resourceVersion,
    resourceVersionMatch: o?.resourceVersionMatch,
  };
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

  async #json<R>(method: string, path: string, signal: AbortSignal | undefined, body?: unknown, contentType?: string): Promise<R> {
    const res = await this.transport.request({
      method,
      path,
      signal,
      body: body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : jsonBody(body),
      contentType,
    });
    return JSON.parse(res.body) as R;
  }

  async get<T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName, o?: RequestOptions & { subresource?: string }): Promise<T> {
    return this.#json('GET', resourcePath(r, { namespace: nn.namespace, name: nn.name, subresource: o?.subresource }), o?.signal);
  }

  async list<T extends KubeObject>(r: ResourceDescriptor<T>, o?: ListOptions): Promise<KubeList<T>> {
    const q = queryString({ ...listQuery(o), limit: o?.limit, continue: o?.continue });
    return this.#json('GET', resourcePath(r, { namespace: o?.namespace }) + q, o?.signal);
  }

  async watch<T extends KubeObject>(r: ResourceDescriptor<T>, o?: WatchOptions): Promise<WatchStream<T>> {
    const q = queryString({
      watch: 'true',
      ...listQuery(o),
      allowWatchBookmarks: o?.allowWatchBookmarks,
      sendInitialEvents: o?.sendInitialEvents,
      timeoutSeconds: o?.timeoutSeconds,
    });
    const streaming = await this.transport.stream({ method: 'GET', path: resourcePath(r, { namespace: o?.namespace }) + q, signal: o?.signal });
    return new HttpWatchStream<T>(streaming, { clock: this.clock, inactivityTimeoutMs: o?.inactivityTimeoutMs, signal: o?.signal });
  }

  async create<T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: WriteOptions): Promise<T> {
    const path = resourcePath(r, { namespace: this.#namespaceOf(r, obj) }) + queryString(writeQuery(o));
    return this.#json('POST', path, o?.signal, obj);
  }

  async update<T extends KubeObject>(r: ResourceDescriptor<T>, obj: T, o?: UpdateOptions): Promise<T> {
    const path = resourcePath(r, { namespace: this.#namespaceOf(r, obj), name: nameOf(obj, 'update'), subresource: o?.subresource });
    return this.#json('PUT', path + queryString(writeQuery(o)), o?.signal, obj);
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
    const path = resourcePath(r, { namespace: nn.namespace, name: nn.name, subresource });
    return this.#json('POST', path + queryString(writeQuery(o)), o?.signal, body);
  }

  async patch<T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName, patch: unknown, type: PatchType, o?: PatchOptions): Promise<T> {
    const path = resourcePath(r, { namespace: nn.namespace, name: nn.name, subresource: o?.subresource });
    const q = queryString({ ...writeQuery(o), force: o?.force });
    return this.#json('PATCH', path + q, o?.signal, patch, PATCH_CONTENT_TYPES[type]);
  }

  async delete<T extends KubeObject>(r: ResourceDescriptor<T>, nn: NamespacedName, o?: DeleteOptions): Promise<T | Status> {
    const path = resourcePath(r, { namespace: nn.namespace, name: nn.name }) + queryString({ dryRun: o?.dryRun ? 'All' : undefined });
    return this.#json('DELETE', path, o?.signal, deleteBody(o));
  }

  async deleteCollection<T extends KubeObject>(r: ResourceDescriptor<T>, o?: ListOptions & DeleteOptions): Promise<KubeList<T> | Status> {
    const q = queryString({ ...listQuery(o), limit: o?.limit, continue: o?.continue, dryRun: o?.dryRun ? 'All' : undefined });
    return this.#json('DELETE', resourcePath(r, { namespace: o?.namespace }) + q, o?.signal, deleteBody(o));
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
