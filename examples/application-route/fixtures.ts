/**
 * Test support for the ApplicationRoute operator's end-to-end tests: sample objects, a logger that
 * records what the controller did (every reconcile logs `Reconciling` with the route's namespace and
 * name). Faults are injected with `faultInjectingClient` from `kube-converge/testing`. Used by tests
 * only; the operator never imports it.
 */
import { SecretResource, ServiceResource, type LogFields, type Logger, type ObjectOf } from 'kube-converge/meta';
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
  const emit =
    (level: string) =>
    (fields: LogFields, msg: string): void => {
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
