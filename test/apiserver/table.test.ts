// The table folder's public face is imported directly: the apiserver layer's index belongs to the
// server core, which re-exports only what clients of the server need.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toTable, builtinPrinterColumns, humanDuration, parseJsonPath, evaluateJsonPath } from '../../src/apiserver/table/index.js';
import type { ServedResource } from '../../src/apiserver/served-resource.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const base = { shortNames: [], categories: [], verbs: VERBS, subresources: [], namespaced: true };

const webApp: ServedResource = {
  ...base, group: 'platform.converge.dev', version: 'v1alpha1', kind: 'WebApp', plural: 'webapps', singular: 'webapp', custom: true,
  printerColumns: [
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    { name: 'Image', type: 'string', jsonPath: '.spec.image', priority: 1 },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
};
const app = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'platform.converge.dev/v1alpha1', kind: 'WebApp',
  metadata: { name, namespace: 'default', creationTimestamp: '2026-01-01T11:55:00Z', uid: 'u-' + name },
  ...extra,
});

describe('Table output', () => {
  it('renders custom resources as Name plus their printer columns, evaluating simple JSONPath and filters', () => {
    const table = toTable([
      app('a', { spec: { replicas: 3, image: 'nginx' }, status: { conditions: [{ type: 'Synced', status: 'False' }, { type: 'Ready', status: 'True' }] } }),
      app('b'),
    ], webApp, { includeObject: 'Metadata', now: NOW, listMeta: { resourceVersion: '42' } });
    assert.equal(table.kind, 'Table');
    assert.equal(table.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(table.metadata, { resourceVersion: '42' });
    assert.deepEqual(table.columnDefinitions?.map((c) => [c.name, c.type, c.format, c.priority]), [
      ['Name', 'string', 'name', 0], ['Replicas', 'integer', '', 0], ['Ready', 'string', '', 0], ['Image', 'string', '', 1], ['Age', 'date', '', 0],
    ]);
    assert.deepEqual(table.rows.map((r) => r.cells), [['a', 3, 'True', 'nginx', '5m'], ['b', null, null, null, '5m']]);
    assert.deepEqual(table.rows[0]?.object, {
      kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'a', namespace: 'default', creationTimestamp: '2026-01-01T11:55:00Z', uid: 'u-a' },
    });
  });

  it('gives a custom resource without printer columns a single Age column', () => {
    const table = toTable([app('a')], { ...webApp, printerColumns: [] }, { includeObject: 'None', now: NOW });
    assert.deepEqual(table.columnDefinitions?.map((c) => c.name), ['Name', 'Age']);
    assert.deepEqual(table.rows, [{ cells: ['a', '5m'], object: null }]);
  });

  it('embeds the whole object with includeObject=Object and leaves out column definitions when asked (watch events after the first)', () => {
    const obj = app('a');
    const table = toTable([obj], webApp, { includeObject: 'Object', now: NOW, omitColumnDefinitions: true });
    assert.equal(table.columnDefinitions, null);
    assert.deepEqual(table.rows[0]?.object, obj);
  });

  it('uses the default Name and Created At columns for kinds without a printer', () => {
    const crd: ServedResource = { ...base, group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions', singular: 'customresourcedefinition', namespaced: false, custom: false };
    const table = toTable([{ metadata: { name: 'webapps.platform.converge.dev', creationTimestamp: '2025-12-31T00:00:00Z' } }], crd, { includeObject: 'Metadata', now: NOW });
    assert.deepEqual(table.columnDefinitions?.map((c) => [c.name, c.type]), [['Name', 'string'], ['Created At', 'date']]);
    assert.deepEqual(table.rows[0]?.cells, ['webapps.platform.converge.dev', '2025-12-31T00:00:00Z']);
  });

  it('prints built-in kinds with the columns of the real server printers', () => {
    const core = (kind: string, plural: string): ServedResource => ({ ...base, group: '', version: 'v1', kind, plural, singular: kind.toLowerCase(), custom: false });
    const ts = '2026-01-01T09:00:00Z';
    const cm = toTable([{ metadata: { name: 'cfg', creationTimestamp: ts }, data: { a: '1', b: '2' }, binaryData: { c: '' } }], core('ConfigMap', 'configmaps'), { includeObject: 'Metadata', now: NOW });
    assert.deepEqual(cm.columnDefinitions?.map((c) => c.name), ['Name', 'Data', 'Age']);
    assert.deepEqual(cm.rows[0]?.cells, ['cfg', 3, '3h']);

    const secret = toTable([{ metadata: { name: 's', creationTimestamp: ts }, type: 'kubernetes.io/tls', data: { a: '', b: '' } }], core('Secret', 'secrets'), { includeObject: 'Metadata', now: NOW });
    assert.deepEqual(secret.rows[0]?.cells, ['s', 'kubernetes.io/tls', 2, '3h']);

    const ns = toTable([{ metadata: { name: 'default', creationTimestamp: ts }, status: { phase: 'Active' } }], { ...core('Namespace', 'namespaces'), namespaced: false }, { includeObject: 'Metadata', now: NOW });
    assert.deepEqual(ns.rows[0]?.cells, ['default', 'Active', '3h']);

    const svc = toTable([{ metadata: { name: 'web', creationTimestamp: ts }, spec: { type: 'ClusterIP', clusterIP: '10.0.0.12', ports: [{ port: 80 }, { port: 443, protocol: 'TCP' }], selector: { app: 'web' } } }], core('Service', 'services'), { includeObject: 'Metadata', now: NOW });
    assert.deepEqual(svc.columnDefinitions?.map((c) => c.name), ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector']);
    assert.deepEqual(svc.rows[0]?.cells, ['web', 'ClusterIP', '10.0.0.12', '<none>', '80/TCP,443/TCP', '3h', 'app=web']);

    const pod = toTable([{ metadata: { name: 'p', creationTimestamp: ts }, spec: { containers: [{ name: 'a' }, { name: 'b' }] }, status: { phase: 'Running', containerStatuses: [{ ready: true, restartCount: 2 }, { ready: false, restartCount: 1 }] } }], core('Pod', 'pods'), { includeObject: 'Metadata', now: NOW });
    assert.deepEqual(pod.rows[0]?.cells.slice(0, 5), ['p', '1/2', 'Running', '3', '3h']);
    assert.deepEqual(pod.columnDefinitions?.filter((c) => c.priority === 0).map((c) => c.name), ['Name', 'Ready', 'Status', 'Restarts', 'Age']);

    const deploy: ServedResource = { ...base, group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', singular: 'deployment', custom: false };
    const d = toTable([{ metadata: { name: 'web', creationTimestamp: ts }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { spec: { containers: [{ name: 'app', image: 'nginx' }] } } }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } }], deploy, { includeObject: 'Metadata', now: NOW });
    assert.deepEqual(d.columnDefinitions?.map((c) => c.name), ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
    assert.deepEqual(d.rows[0]?.cells, ['web', '2/3', 3, 2, '3h', 'app', 'nginx', 'app=web']);

    const lease: ServedResource = { ...base, group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', singular: 'lease', custom: false };
    assert.deepEqual(toTable([{ metadata: { name: 'l', creationTimestamp: ts }, spec: { holderIdentity: 'me' } }], lease, { includeObject: 'None', now: NOW }).rows[0]?.cells, ['l', 'me', '3h']);
  });

  it('prints Events as LAST SEEN, TYPE, REASON, OBJECT, MESSAGE and tolerates fields of the wrong type', () => {
    const event: ServedResource = { ...base, group: '', version: 'v1', kind: 'Event', plural: 'events', singular: 'event', custom: false };
    const table = toTable([
      { metadata: { name: 'e1' }, type: 'Warning', reason: 'BackOff', message: 'restarting', involvedObject: { kind: 'Pod', name: 'web-1' }, lastTimestamp: '2026-01-01T11:59:30Z' },
      { metadata: { name: 5 }, type: ['odd'] },
    ], event, { includeObject: 'None', now: NOW });
    assert.deepEqual(table.columnDefinitions?.map((c) => c.name), ['Last Seen', 'Type', 'Reason', 'Object', 'Message']);
    assert.deepEqual(table.rows.map((r) => r.cells), [['30s', 'Warning', 'BackOff', 'pod/web-1', 'restarting'], ['<unknown>', '', '', '/', '']]);
  });

  it('describes built-in printer columns after Name for the registry', () => {
    assert.deepEqual(builtinPrinterColumns('Deployment').map((c) => c.name), ['Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
    assert.deepEqual(builtinPrinterColumns('CustomResourceDefinition'), []);
  });

  it('formats ages like the real server', () => {
    const s = 1000;
    assert.deepEqual(
      [-5 * s, -1 * s, 0, 119 * s, 150 * s, 600 * s, 3 * 3600 * s + 5 * 60 * s, 7 * 3600 * s + 30 * 60 * s, 30 * 3600 * s, 50 * 3600 * s, 30 * 86400 * s, 800 * 86400 * s, 3650 * 86400 * s].map(humanDuration),
      ['<invalid>', '0s', '0s', '119s', '2m30s', '10m', '3h5m', '7h30m', '30h', '2d2h', '30d', '2y70d', '10y'],
    );
  });

  it('evaluates bracketed names, indexes and wildcards, and rejects unsupported JSONPath', () => {
    const obj = { metadata: { annotations: { 'a.b/c': 'x' } }, items: [{ n: 1 }, { n: 2 }] };
    assert.deepEqual(evaluateJsonPath(obj, parseJsonPath(".metadata.annotations['a.b/c']")), ['x']);
    assert.deepEqual(evaluateJsonPath(obj, parseJsonPath('.items[*].n')), [1, 2]);
    assert.deepEqual(evaluateJsonPath(obj, parseJsonPath('{.items[-1].n}')), [2]);
    assert.deepEqual(evaluateJsonPath(obj, parseJsonPath('.missing.deeper')), []);
    assert.throws(() => parseJsonPath('.items[1:2]'));
  });
});
