// Imports the private table/ face and one strategy's printer to unit-test pure table builders.
// Table output. The built-in kinds' printers are tested through a running server; the table folder's
// face (and one strategy's printer) is imported directly only to unit-test pure builders (CRD columns,
// JSONPath, ages, cells of mistyped stored objects no request can write), which the apiserver layer's
// index does not re-export because clients of the server never call them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from 'kube-converge/meta';
import { toTable, humanDuration, parseJsonPath, evaluateJsonPath } from '../../src/apiserver/table/index.js';
import type { ServedResource } from 'kube-converge/apiserver';
import { CoreEventStrategy } from '../../src/apiserver/registry/event.js';
import { startApi, type Api } from './helpers.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const base = { shortNames: [], categories: [], verbs: VERBS, subresources: [], namespaced: true };

const webApp: ServedResource = {
  ...base,
  group: 'platform.converge.dev',
  version: 'v1alpha1',
  kind: 'WebApp',
  plural: 'webapps',
  singular: 'webapp',
  custom: true,
  printerColumns: [
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    { name: 'Image', type: 'string', jsonPath: '.spec.image', priority: 1 },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
};
const app = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'platform.converge.dev/v1alpha1',
  kind: 'WebApp',
  metadata: { name, namespace: 'default', creationTimestamp: '2026-01-01T11:55:00Z', uid: 'u-' + name },
  ...extra,
});

describe('Table output', () => {
  it('renders custom resources as Name plus their printer columns, evaluating simple JSONPath and filters', () => {
    const table = toTable(
      [
        app('a', {
          spec: { replicas: 3, image: 'nginx' },
          status: {
            conditions: [
              { type: 'Synced', status: 'False' },
              { type: 'Ready', status: 'True' },
            ],
          },
        }),
        app('b'),
      ],
      webApp,
      { includeObject: 'Metadata', now: NOW, listMeta: { resourceVersion: '42' } },
    );
    assert.equal(table.kind, 'Table');
    assert.equal(table.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(table.metadata, { resourceVersion: '42' });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => [c.name, c.type, c.format, c.priority]),
      [
        ['Name', 'string', 'name', 0],
        ['Replicas', 'integer', '', 0],
        ['Ready', 'string', '', 0],
        ['Image', 'string', '', 1],
        ['Age', 'date', '', 0],
      ],
    );
    assert.deepEqual(
      table.rows.map((r) => r.cells),
      [
        ['a', 3, 'True', 'nginx', '5m'],
        ['b', null, null, null, '5m'],
      ],
    );
    assert.deepEqual(table.rows[0]?.object, {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'a', namespace: 'default', creationTimestamp: '2026-01-01T11:55:00Z', uid: 'u-a' },
    });
  });

  it('gives a custom resource without printer columns a single Age column', () => {
    const table = toTable([app('a')], { ...webApp, printerColumns: [] }, { includeObject: 'None', now: NOW });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => c.name),
      ['Name', 'Age'],
    );
    assert.deepEqual(table.rows, [{ cells: ['a', '5m'], object: null }]);
  });

  it('embeds the whole object with includeObject=Object and leaves out column definitions when asked (watch events after the first)', () => {
    const obj = app('a');
    const table = toTable([obj], webApp, { includeObject: 'Object', now: NOW, omitColumnDefinitions: true });
    assert.equal(table.columnDefinitions, null);
    assert.deepEqual(table.rows[0]?.object, obj);
  });

  it('uses the default Name and Created At columns for kinds without a printer', () => {
    const crd: ServedResource = {
      ...base,
      group: 'apiextensions.k8s.io',
      version: 'v1',
      kind: 'CustomResourceDefinition',
      plural: 'customresourcedefinitions',
      singular: 'customresourcedefinition',
      namespaced: false,
      custom: false,
    };
    const table = toTable([{ metadata: { name: 'webapps.platform.converge.dev', creationTimestamp: '2025-12-31T00:00:00Z' } }], crd, {
      includeObject: 'Metadata',
      now: NOW,
    });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => [c.name, c.type]),
      [
        ['Name', 'string'],
        ['Created At', 'date'],
      ],
    );
    assert.deepEqual(table.rows[0]?.cells, ['webapps.platform.converge.dev', '2025-12-31T00:00:00Z']);
  });

  it('prints a stored object with fields of the wrong type as empty cells, never an error', () => {
    const event: ServedResource = { ...base, group: '', version: 'v1', kind: 'Event', plural: 'events', singular: 'event', custom: false };
    const table = toTable([{ metadata: { name: 5 }, type: ['odd'] }], event, {
      includeObject: 'None',
      now: NOW,
      printer: new CoreEventStrategy().printer,
    });
    assert.deepEqual(
      table.rows.map((r) => r.cells),
      [['<unknown>', '', '', '/', '']],
    );
  });

  it('formats ages like the real server', () => {
    const s = 1000;
    assert.deepEqual(
      [
        -5 * s,
        -1 * s,
        0,
        119 * s,
        150 * s,
        600 * s,
        3 * 3600 * s + 5 * 60 * s,
        7 * 3600 * s + 30 * 60 * s,
        30 * 3600 * s,
        50 * 3600 * s,
        30 * 86400 * s,
        800 * 86400 * s,
        3650 * 86400 * s,
      ].map(humanDuration),
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

const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
const MERGE = { 'content-type': 'application/merge-patch+json' };

/** The Table for one object at `path`, after the clock has moved three hours past its creation. */
async function tableOf(api: Api, path: string): Promise<{ columns: string[]; wide: string[]; cells: unknown[] }> {
  const t = (await api.call('GET', path, undefined, TABLE)).body as {
    columnDefinitions: { name: string; priority: number }[];
    rows: { cells: unknown[] }[];
  };
  return {
    columns: t.columnDefinitions.filter((c) => c.priority === 0).map((c) => c.name),
    wide: t.columnDefinitions.filter((c) => c.priority === 1).map((c) => c.name),
    cells: t.rows[0]!.cells,
  };
}

describe('built-in printers, as served', () => {
  it('prints each built-in kind with the columns and cells of the real server printers', async () => {
    const clock = new FakeClock(Date.parse('2026-01-01T09:00:00Z'));
    await using api = await startApi({ clock });
    const ns = '/api/v1/namespaces/default';
    const created = async (path: string, body: Record<string, unknown>): Promise<void> => {
      const r = await api.call('POST', path, body);
      assert.equal(r.status, 201, r.text);
    };
    await created(`${ns}/configmaps`, { metadata: { name: 'cfg' }, data: { a: '1', b: '2' }, binaryData: { c: '' } });
    await created(`${ns}/secrets`, { metadata: { name: 's' }, type: 'example.com/custom', data: { a: '', b: '' } });
    await created(`${ns}/services`, {
      metadata: { name: 'web' },
      spec: {
        ports: [
          { name: 'http', port: 80 },
          { name: 'https', port: 443, protocol: 'TCP' },
        ],
        selector: { app: 'web' },
      },
    });
    await created(`${ns}/serviceaccounts`, { metadata: { name: 'robot' } });
    await created(`${ns}/pods`, {
      metadata: { name: 'p' },
      spec: {
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'y' },
        ],
      },
    });
    const podStatus = {
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'a', ready: true, restartCount: 2 },
          { name: 'b', ready: false, restartCount: 1 },
        ],
      },
    };
    assert.equal((await api.call('PATCH', `${ns}/pods/p/status`, podStatus, MERGE)).status, 200);
    const apps = '/apis/apps/v1/namespaces/default';
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
    await created(`${apps}/deployments`, {
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template },
    });
    const deployStatus = { status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } };
    assert.equal((await api.call('PATCH', `${apps}/deployments/web/status`, deployStatus, MERGE)).status, 200);
    await created(`${apps}/replicasets`, {
      metadata: { name: 'web-1' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template },
    });
    await created('/apis/coordination.k8s.io/v1/namespaces/default/leases', { metadata: { name: 'l' }, spec: { holderIdentity: 'me' } });
    await created(`${ns}/events`, {
      metadata: { name: 'e1' },
      type: 'Warning',
      reason: 'BackOff',
      message: 'restarting',
      involvedObject: { kind: 'Pod', name: 'p' },
      lastTimestamp: '2026-01-01T11:59:30Z',
    });
    await clock.advance(3 * 3600 * 1000);

    assert.deepEqual(await tableOf(api, `${ns}/configmaps/cfg`), { columns: ['Name', 'Data', 'Age'], wide: [], cells: ['cfg', 3, '3h'] });
    assert.deepEqual((await tableOf(api, `${ns}/secrets/s`)).cells, ['s', 'example.com/custom', 2, '3h']);
    assert.deepEqual(await tableOf(api, '/api/v1/namespaces/default'), {
      columns: ['Name', 'Status', 'Age'],
      wide: [],
      cells: ['default', 'Active', '3h'],
    });
    assert.deepEqual((await tableOf(api, `${ns}/serviceaccounts/robot`)).cells, ['robot', 0, '3h']);

    const svc = await tableOf(api, `${ns}/services/web`);
    assert.deepEqual(svc.columns, ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age']);
    assert.deepEqual(svc.wide, ['Selector']);
    assert.match(String(svc.cells[2]), /^10\.0\.0\.\d+$/);
    assert.deepEqual([...svc.cells.slice(0, 2), ...svc.cells.slice(3)], ['web', 'ClusterIP', '<none>', '80/TCP,443/TCP', '3h', 'app=web']);

    const pod = await tableOf(api, `${ns}/pods/p`);
    assert.deepEqual(pod.columns, ['Name', 'Ready', 'Status', 'Restarts', 'Age']);
    assert.deepEqual(pod.wide, ['IP', 'Node', 'Nominated Node', 'Readiness Gates']);
    assert.deepEqual(pod.cells.slice(0, 5), ['p', '1/2', 'Running', '3', '3h']);

    const deploy = await tableOf(api, `${apps}/deployments/web`);
    assert.deepEqual(deploy, {
      columns: ['Name', 'Ready', 'Up-to-date', 'Available', 'Age'],
      wide: ['Containers', 'Images', 'Selector'],
      cells: ['web', '2/3', 3, 2, '3h', 'app', 'nginx', 'app=web'],
    });
    const rs = await tableOf(api, `${apps}/replicasets/web-1`);
    assert.deepEqual(rs.columns, ['Name', 'Desired', 'Current', 'Ready', 'Age']);
    assert.deepEqual(rs.cells, ['web-1', 2, 0, 0, '3h', 'app', 'nginx', 'app=web']);

    assert.deepEqual((await tableOf(api, '/apis/coordination.k8s.io/v1/namespaces/default/leases/l')).cells, ['l', 'me', '3h']);
    const event = await tableOf(api, `${ns}/events/e1`);
    assert.deepEqual(event.columns, ['Last Seen', 'Type', 'Reason', 'Object', 'Message']);
    assert.deepEqual(event.cells, ['30s', 'Warning', 'BackOff', 'pod/p', 'restarting']);
    assert.deepEqual((await tableOf(api, '/apis/events.k8s.io/v1/namespaces/default/events/e1')).cells, event.cells);
  });

  it('gives a built-in kind without a printer the default Name and Created At columns', async () => {
    await using api = await startApi();
    const crds = (await api.call('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', undefined, TABLE)).body;
    assert.deepEqual(
      crds.columnDefinitions.map((c: { name: string }) => c.name),
      ['Name', 'Created At'],
    );
  });
});
