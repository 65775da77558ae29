/**
 * Test support for the ApplicationRoute operator's end-to-end tests: sample objects, a logger that
 * records what the controller did (every reconcile logs `Reconciling` with the route's namespace and
 * name), and a client wrapper that injects the faults of the guide's failure tests (a hook before each
 * write, delayed watch events for cache lag). Used by tests only; the operator never imports it.
 */
import type { Client, WatchStream } from 'kube-converge/client';
import {
  SecretResource, ServiceResource, type KubeObject, type LogFields, type Logger, type ObjectOf, type ResourceDescriptor,
} from 'kube-converge/meta';
import { ApplicationRoute, type ApplicationRouteSpec } from './types.js';

export type Route = ObjectOf<typeof ApplicationRoute>;
export type Service = ObjectOf<typeof ServiceResource>;
export type Secret = ObjectOf<typeof SecretResource>;

export const route = (namespace: string, name: string, spec: Partial<ApplicationRouteSpec> = {}): Route => ({
  apiVersion: ApplicationRoute.apiVersion,
  kind: ApplicationRoute.kind,
  metadata: { name, namespace },
  spec: {
    hostnames: [`${name}.internal.example.com`],
    backends: [{ service: name, port: 8080 }],
    ...spec,
  },
});

export const service = (namespace: string, name: string): Service => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace },
  spec: { selector: { app: name }, ports: [{ name: 'http', port: 8080 }] },
});

export const tlsSecret = (namespace: string, name: string): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace },
  type: 'kubernetes.io/tls',
  data: { 'tls.crt': Buffer.from('cert').toString('base64'), 'tls.key': Buffer.from('key').toString('base64') },
});

export interface LogLine extends LogFields {
  level: string;
  msg: string;
}

/** A logger that keeps every line (all levels) with its bound fields, for assertions. */
export function recordingLogger(lines: LogLine[] = [], bound: LogFields = {}): Logger & { lines: LogLine[] } {
  const emit = (level: string) => (fields: LogFields, msg: string): void => {
    lines.push({ ...bound, ...fields, level, msg });
  };
  return {
    lines,
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (fields) => recordingLogger(lines, { ...bound, ...fields }),
  };
}

/** Reconciles of `name` the controller started so far (its `Reconciling` lines). */
export const reconcilesOf = (lines: readonly LogLine[], name: string, controller = 'applicationroute'): number =>
  lines.filter((l) => l.msg === 'Reconciling' && l.controller === controller && l.name === name).length;

/** Lines of `name` saying a reconcile failed or asked to be requeued: both would be polling. */
export const retriesOf = (lines: readonly LogLine[], name: string): LogLine[] =>
  lines.filter((l) => l.name === name && (l.msg === 'Reconciler error' || l.msg.startsWith('Reconcile done, requeueing')));

export interface Write {
  verb: 'create' | 'update' | 'updateStatus' | 'patch' | 'delete';
  resource: ResourceDescriptor;
  name: string;
  subresource?: string;
}

export interface Faults {
  /** Runs before each write the manager sends; throwing fails the write, awaiting delays it. */
  beforeWrite?: (w: Write) => void | Promise<void>;
  /** Delay (ms) of each watch event of a kind: the cache lags the server by that much. */
  watchDelayMs?: (resource: ResourceDescriptor) => number;
}

/** `base` with `faults` injected; reads pass through untouched. */
export function faultyClient(base: Client, faults: Faults): Client {
  const before = async (w: Write): Promise<void> => {
    await faults.beforeWrite?.(w);
  };
  return {
    get: (r, nn, o) => base.get(r, nn, o),
    list: (r, o) => base.list(r, o),
    async watch<T extends KubeObject>(r: ResourceDescriptor<T>, o?: Parameters<Client['watch']>[1]): Promise<WatchStream<T>> {
      const stream = await base.watch(r, o);
      const delayMs = faults.watchDelayMs?.(r as ResourceDescriptor) ?? 0;
      if (delayMs === 0) return stream;
      return {
        close: () => stream.close(),
        async *[Symbol.asyncIterator]() {
          for await (const event of stream) {
            await new Promise((resolve) => setTimeout(resolve, delayMs));
            yield event;
          }
        },
      };
    },
    async create(r, obj, o) {
      await before({ verb: 'create', resource: r as ResourceDescriptor, name: obj.metadata.name ?? '' });
      return base.create(r, obj, o);
    },
    async update(r, obj, o) {
      await before({ verb: 'update', resource: r as ResourceDescriptor, name: obj.metadata.name ?? '', subresource: o?.subresource });
      return base.update(r, obj, o);
    },
    async updateStatus(r, obj, o) {
      await before({ verb: 'updateStatus', resource: r as ResourceDescriptor, name: obj.metadata.name ?? '', subresource: 'status' });
      return base.updateStatus(r, obj, o);
    },
    async patch(r, nn, p, type, o) {
      await before({ verb: 'patch', resource: r as ResourceDescriptor, name: nn.name, subresource: o?.subresource });
      return base.patch(r, nn, p, type, o);
    },
    async delete(r, nn, o) {
      await before({ verb: 'delete', resource: r as ResourceDescriptor, name: nn.name });
      return base.delete(r, nn, o);
    },
    deleteCollection: (r, o) => base.deleteCollection(r, o),
  };
}
