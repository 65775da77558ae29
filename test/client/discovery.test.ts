// Discovery and the REST mapper against a fixture server: group/resource lists, kind ↔ resource
// mapping, caching and refresh.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UnknownResourceError } from 'kube-converge/meta';
import { createClient, DiscoveryClient, RestMapper, NetworkError } from 'kube-converge/client';
import { startFixtureServer, sendJson } from './fixture-server.js';

/** A discovery server; `crdInstalled` toggles a custom group in and out. */
async function discoveryServer() {
  const state = { crdInstalled: false };
  const srv = await startFixtureServer((req, res) => {
    const docs: Record<string, unknown> = {
      '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] },
      '/apis': {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: [
          {
            name: 'apps',
            versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
            preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
          },
          ...(state.crdInstalled
            ? [
                {
                  name: 'example.com',
                  versions: [
                    { groupVersion: 'example.com/v1', version: 'v1' },
                    { groupVersion: 'example.com/v1beta1', version: 'v1beta1' },
                  ],
                  preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' },
                },
              ]
            : []),
        ],
      },
      '/api/v1': {
        kind: 'APIResourceList',
        groupVersion: 'v1',
        resources: [
          {
            name: 'configmaps',
            singularName: 'configmap',
            namespaced: true,
            kind: 'ConfigMap',
            verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
            shortNames: ['cm'],
          },
          {
            name: 'namespaces',
            singularName: 'namespace',
            namespaced: false,
            kind: 'Namespace',
            verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
            shortNames: ['ns'],
          },
          { name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['get', 'patch', 'update'] },
        ],
      },
      '/apis/apps/v1': {
        kind: 'APIResourceList',
        groupVersion: 'apps/v1',
        resources: [
          {
            name: 'deployments',
            singularName: 'deployment',
            namespaced: true,
            kind: 'Deployment',
            verbs: ['get', 'list', 'watch'],
            shortNames: ['deploy'],
            categories: ['all'],
          },
          {
            name: 'deployments/scale',
            singularName: '',
            namespaced: true,
            group: 'autoscaling',
            version: 'v1',
            kind: 'Scale',
            verbs: ['get', 'patch', 'update'],
          },
          { name: 'deployments/status', singularName: '', namespaced: true, kind: 'Deployment', verbs: ['get', 'patch', 'update'] },
        ],
      },
      ...(state.crdInstalled
        ? {
            '/apis/example.com/v1': {
              kind: 'APIResourceList',
              groupVersion: 'example.com/v1',
              resources: [{ name: 'widgets', singularName: 'widget', namespaced: false, kind: 'Widget', verbs: ['get', 'list'] }],
            },
          }
        : {}),
    };
    const doc = docs[req.url];
    if (doc) sendJson(res, 200, doc);
    else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found');
    }
  });
  return { srv, state };
}

describe('discovery', () => {
  it('lists the core group first, then the named groups, and reads group-version resource lists', async () => {
    const { srv } = await discoveryServer();
    await using _ = srv;
    const client = createClient({ server: srv.url, qps: -1 });
    const d = new DiscoveryClient({ transport: client.transport });
    const groups = await d.serverGroups();
    assert.deepEqual(
      groups.groups.map((g) => g.name),
      ['', 'apps'],
    );
    assert.equal(groups.groups[0]!.preferredVersion?.groupVersion, 'v1');
    const apps = await d.serverResourcesForGroupVersion('apps/v1');
    assert.deepEqual(
      apps.resources.map((r) => r.name),
      ['deployments', 'deployments/scale', 'deployments/status'],
    );
    assert.equal((await d.serverResourcesForGroupVersion('v1')).groupVersion, 'v1');
    client.close();
  });
});

describe('REST mapper', () => {
  it('maps kinds to descriptors with scope, verbs, short names and subresources, caching what it read', async () => {
    const { srv } = await discoveryServer();
    await using _ = srv;
    const client = createClient({ server: srv.url, qps: -1 });
    const mapper = new RestMapper({ discovery: new DiscoveryClient({ transport: client.transport }) });
    const deploy = await mapper.mappingFor({ group: 'apps', version: 'v1', kind: 'Deployment' });
    assert.deepEqual(
      { ...deploy.resource },
      { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true, apiVersion: 'apps/v1' },
    );
    assert.deepEqual(deploy.subresources, ['scale', 'status']);
    assert.deepEqual(deploy.shortNames, ['deploy']);
    assert.deepEqual(deploy.categories, ['all']);
    const ns = await mapper.resourceFor({ group: '', kind: 'Namespace' });
    assert.equal(ns.namespaced, false);
    assert.equal(ns.plural, 'namespaces');
    const before = srv.requests.length;
    await mapper.mappingFor({ group: 'apps', version: 'v1', kind: 'Deployment' });
    await mapper.mappingFor({ group: '', version: 'v1', kind: 'ConfigMap' });
    assert.equal(srv.requests.length, before, 'cached');
    assert.equal((await mapper.kindFor({ resource: 'deploy' })).resource.kind, 'Deployment');
    assert.equal((await mapper.kindFor({ resource: 'configmap' })).resource.kind, 'ConfigMap');
    assert.equal((await mapper.kindFor({ resource: 'namespaces', group: '' })).resource.kind, 'Namespace');
    client.close();
  });

  it('refetches discovery once on a miss, so a newly installed CRD is found', async () => {
    const { srv, state } = await discoveryServer();
    await using _ = srv;
    const client = createClient({ server: srv.url, qps: -1 });
    const mapper = new RestMapper({ discovery: new DiscoveryClient({ transport: client.transport }) });
    await mapper.mappingFor({ group: 'apps', kind: 'Deployment' });
    state.crdInstalled = true;
    const widget = await mapper.mappingFor({ group: 'example.com', kind: 'Widget' });
    assert.equal(widget.resource.apiVersion, 'example.com/v1', 'the preferred version');
    assert.equal(widget.resource.namespaced, false);
    client.close();
  });

  it('throws UnknownResourceError when the refetch still misses', async () => {
    const { srv } = await discoveryServer();
    await using _ = srv;
    const client = createClient({ server: srv.url, qps: -1 });
    const mapper = new RestMapper({ discovery: new DiscoveryClient({ transport: client.transport }) });
    await assert.rejects(
      mapper.mappingFor({ group: 'apps', version: 'v1', kind: 'Gadget' }),
      (e: unknown) => e instanceof UnknownResourceError && e.code === 'CONVERGE_UNKNOWN_RESOURCE' && /Gadget\.v1\.apps/.test(e.message),
    );
    await assert.rejects(mapper.mappingFor({ group: 'nope.io', kind: 'X' }), UnknownResourceError);
    await assert.rejects(mapper.kindFor({ resource: 'gizmos' }), UnknownResourceError);
    client.close();
  });

  it('passes a network failure through instead of claiming the kind is unknown', async () => {
    const { srv } = await discoveryServer();
    await srv.stop();
    const client = createClient({ server: srv.url, qps: -1, maxRetries: 0 });
    const mapper = new RestMapper({ discovery: new DiscoveryClient({ transport: client.transport }) });
    await assert.rejects(mapper.mappingFor({ group: 'apps', kind: 'Deployment' }), NetworkError);
    client.close();
  });
});
