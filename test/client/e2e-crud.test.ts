// End to end against the local API server (kube-converge/apiserver) over a real loopback socket.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, DeploymentResource, NamespaceResource, defineResource, type ObjectOf } from 'kube-converge/meta';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import {
  createClient,
  createMergePatch,
  loadKubeConfig,
  DiscoveryClient,
  RestMapper,
  StatusError,
  isAlreadyExists,
  isConflict,
  isInvalid,
  isNotFound,
  type RestClient,
} from 'kube-converge/client';
import { restConfigFor } from 'kube-converge/testing';

type ConfigMap = ObjectOf<typeof ConfigMapResource>;
type Deployment = ObjectOf<typeof DeploymentResource>;

let server: RunningApiServer;
let client: RestClient;
before(async () => {
  server = await startApiServer();
  client = createClient({ config: restConfigFor(server) });
});
after(async () => {
  client.close();
  await server.stop();
});

const cm = (name: string, data: Record<string, string> = {}, labels?: Record<string, string>, namespace = 'default'): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace, name, ...(labels ? { labels } : {}) },
  data,
});

const deployment = (name: string, replicas = 1): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { namespace: 'default', name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'web', image: 'nginx:1', env: [{ name: 'A', value: '1' }] }] },
    },
  },
});

describe('client e2e: CRUD', () => {
  it('creates, reads, updates and deletes a ConfigMap with resourceVersions moving forward', async () => {
    const created = await client.create(ConfigMapResource, cm('crud-a', { k: 'v1' }));
    assert.ok(created.metadata.uid);
    assert.ok(created.metadata.resourceVersion);
    const got = await client.get(ConfigMapResource, { namespace: 'default', name: 'crud-a' });
    assert.deepEqual(got.data, { k: 'v1' });
    const updated = await client.update(ConfigMapResource, { ...got, data: { k: 'v2' } });
    assert.equal(updated.data?.['k'], 'v2');
    assert.ok(BigInt(updated.metadata.resourceVersion!) > BigInt(got.metadata.resourceVersion!));
    await client.delete(ConfigMapResource, { namespace: 'default', name: 'crud-a' });
    await assert.rejects(client.get(ConfigMapResource, { namespace: 'default', name: 'crud-a' }), (e: unknown) => isNotFound(e));
  });

  it('reports AlreadyExists, Conflict on a stale update, and NotFound as typed StatusErrors', async () => {
    const first = await client.create(ConfigMapResource, cm('crud-b'));
    await assert.rejects(
      client.create(ConfigMapResource, cm('crud-b')),
      (e: unknown) => isAlreadyExists(e) && e instanceof StatusError && e.status.code === 409,
    );
    await client.update(ConfigMapResource, { ...first, data: { x: '1' } });
    const stale = await client.update(ConfigMapResource, { ...first, data: { x: '2' } }).catch((e: unknown) => e);
    assert.ok(isConflict(stale), String(stale));
    await assert.rejects(client.delete(ConfigMapResource, { namespace: 'default', name: 'never' }), (e: unknown) => isNotFound(e));
  });

  it('handles cluster-scoped kinds', async () => {
    await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'crud-ns' } });
    const ns = await client.get(NamespaceResource, { name: 'crud-ns' });
    assert.equal(ns.metadata.name, 'crud-ns');
    const all = await client.list(NamespaceResource);
    assert.ok(all.items.some((n) => n.metadata.name === 'default'));
  });

  it('filters lists with label and field selectors', async () => {
    await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sel' } });
    for (const [name, tier] of [
      ['s1', 'web'],
      ['s2', 'web'],
      ['s3', 'db'],
    ] as const) {
      await client.create(ConfigMapResource, cm(name, {}, { tier, suite: 'sel' }, 'sel'));
    }
    const web = await client.list(ConfigMapResource, { namespace: 'sel', labelSelector: 'tier=web' });
    assert.deepEqual(
      web.items.map((i) => i.metadata.name),
      ['s1', 's2'],
    );
    const notWeb = await client.list(ConfigMapResource, { labelSelector: 'suite=sel,tier!=web' });
    assert.deepEqual(
      notWeb.items.map((i) => i.metadata.name),
      ['s3'],
    );
    const byName = await client.list(ConfigMapResource, { namespace: 'sel', fieldSelector: 'metadata.name=s2' });
    assert.deepEqual(
      byName.items.map((i) => i.metadata.name),
      ['s2'],
    );
    await assert.rejects(
      client.list(ConfigMapResource, { labelSelector: 'tier in (web' }),
      (e: unknown) => e instanceof StatusError && e.status.code === 400,
    );
  });

  it('pages through a list with limit and continue, on one consistent snapshot', async () => {
    await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'pages' } });
    for (let i = 0; i < 7; i++) await client.create(ConfigMapResource, cm(`p${i}`, {}, undefined, 'pages'));
    const names: string[] = [];
    let cont: string | undefined;
    let pages = 0;
    let snapshotRv: string | undefined;
    do {
      const page = await client.list(ConfigMapResource, { namespace: 'pages', limit: 3, continue: cont });
      names.push(...page.items.map((i) => i.metadata.name!));
      snapshotRv ??= page.metadata.resourceVersion;
      assert.equal(page.metadata.resourceVersion, snapshotRv);
      if (pages === 0) await client.create(ConfigMapResource, cm('p9-late', {}, undefined, 'pages'));
      cont = page.metadata.continue || undefined;
      pages++;
    } while (cont);
    assert.equal(pages, 3);
    assert.deepEqual(names, ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6'], 'an object created after the first page is not in the snapshot');
  });

  it('deletes a collection by label selector, returning what it deleted', async () => {
    await client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dc' } });
    for (const [n, l] of [
      ['d1', 'x'],
      ['d2', 'x'],
      ['d3', 'y'],
    ] as const)
      await client.create(ConfigMapResource, cm(n, {}, { l }, 'dc'));
    await client.deleteCollection(ConfigMapResource, { namespace: 'dc', labelSelector: 'l=x' });
    const left = await client.list(ConfigMapResource, { namespace: 'dc' });
    assert.deepEqual(
      left.items.map((i) => i.metadata.name),
      ['d3'],
    );
  });

  it('honours delete preconditions', async () => {
    const obj = await client.create(ConfigMapResource, cm('pre'));
    await assert.rejects(
      client.delete(ConfigMapResource, { namespace: 'default', name: 'pre' }, { preconditions: { uid: 'not-the-uid' } }),
      (e: unknown) => isConflict(e),
    );
    await client.delete(
      ConfigMapResource,
      { namespace: 'default', name: 'pre' },
      {
        preconditions: { uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion },
        propagationPolicy: 'Background',
        gracePeriodSeconds: 0,
      },
    );
    await assert.rejects(client.get(ConfigMapResource, { namespace: 'default', name: 'pre' }), (e: unknown) => isNotFound(e));
  });

  it('stores nothing on dryRun, for creates, updates and deletes', async () => {
    const dry = await client.create(ConfigMapResource, cm('dry'), { dryRun: true });
    assert.equal(dry.metadata.name, 'dry');
    await assert.rejects(client.get(ConfigMapResource, { namespace: 'default', name: 'dry' }), (e: unknown) => isNotFound(e));
    const real = await client.create(ConfigMapResource, cm('dry2', { a: '1' }));
    await client.update(ConfigMapResource, { ...real, data: { a: '2' } }, { dryRun: true });
    await client.delete(ConfigMapResource, { namespace: 'default', name: 'dry2' }, { dryRun: true });
    assert.deepEqual((await client.get(ConfigMapResource, { namespace: 'default', name: 'dry2' })).data, { a: '1' });
  });
});

describe('client e2e: kubeconfig', () => {
  it('connects through the kubeconfig the local server writes, with its context namespace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'converge-e2e-kc-'));
    try {
      const path = join(dir, 'config');
      await server.writeKubeconfig(path);
      const config = loadKubeConfig({ env: { KUBECONFIG: path } });
      assert.equal(config.server, server.url);
      assert.equal(config.namespace, 'default');
      const viaConfig = createClient({ config, qps: -1 });
      const list = await viaConfig.list(NamespaceResource);
      assert.ok(list.items.some((n) => n.metadata.name === 'kube-system'));
      viaConfig.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('client e2e: patches', () => {
  it('applies JSON patch, merge patch and strategic merge patch', async () => {
    await client.create(ConfigMapResource, cm('patch-a', { a: '1', b: '2' }));
    const nn = { namespace: 'default', name: 'patch-a' };
    const j = await client.patch(
      ConfigMapResource,
      nn,
      [
        { op: 'replace', path: '/data/a', value: 'one' },
        { op: 'remove', path: '/data/b' },
      ],
      'json',
    );
    assert.deepEqual(j.data, { a: 'one' });
    const m = await client.patch(ConfigMapResource, nn, { data: { c: '3', a: null } }, 'merge');
    assert.deepEqual(m.data, { c: '3' });
    await client.create(DeploymentResource, deployment('patch-d'));
    const s = await client.patch(
      DeploymentResource,
      { namespace: 'default', name: 'patch-d' },
      { spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: '2' }] }] } } } },
      'strategic',
    );
    const env = (s.spec?.template.spec?.containers[0]?.env ?? []).map((e) => e.name).sort();
    assert.deepEqual(env, ['A', 'B'], 'strategic merge merges env by name instead of replacing the list');
    await assert.rejects(client.patch(ConfigMapResource, nn, [{ op: 'test', path: '/data/c', value: 'nope' }], 'json'), (e: unknown) =>
      isInvalid(e),
    );
  });

  it('builds merge patches from (old, new), and the optimistic lock turns a stale base into a Conflict', async () => {
    const base = await client.create(ConfigMapResource, cm('patch-lock', { a: '1', gone: 'x' }));
    const nn = { namespace: 'default', name: 'patch-lock' };
    const want = { ...base, data: { a: '2', added: 'y' } };
    const patch = createMergePatch(base, want);
    assert.deepEqual(patch, { data: { a: '2', gone: null, added: 'y' } });
    const after = await client.patch(ConfigMapResource, nn, createMergePatch(base, want, { optimisticLock: true }), 'merge');
    assert.deepEqual(after.data, { a: '2', added: 'y' });
    const stale = await client
      .patch(ConfigMapResource, nn, createMergePatch(base, { ...base, data: { a: '3' } }, { optimisticLock: true }), 'merge')
      .catch((e: unknown) => e);
    assert.ok(isConflict(stale), String(stale));
  });

  it('server-side applies with a field manager, conflicts between managers, and takes over with force', async () => {
    const nn = { namespace: 'default', name: 'ssa' };
    const applied = await client.patch(ConfigMapResource, nn, cm('ssa', { owner: 'alice' }), 'apply', { fieldManager: 'alice' });
    assert.equal(applied.data?.['owner'], 'alice', 'apply creates a missing object');
    assert.ok(applied.metadata.managedFields?.some((f) => f.manager === 'alice' && f.operation === 'Apply'));
    const conflict = await client
      .patch(ConfigMapResource, nn, cm('ssa', { owner: 'bob' }), 'apply', { fieldManager: 'bob' })
      .catch((e: unknown) => e);
    assert.ok(isConflict(conflict), String(conflict));
    assert.ok(conflict instanceof StatusError && conflict.status.details?.causes?.some((c) => c.reason === 'FieldManagerConflict'));
    const forced = await client.patch(ConfigMapResource, nn, cm('ssa', { owner: 'bob' }), 'apply', { fieldManager: 'bob', force: true });
    assert.equal(forced.data?.['owner'], 'bob');
    assert.deepEqual(
      forced.metadata.managedFields?.map((f) => f.manager),
      ['bob'],
      'force strips the field from the other manager',
    );
    await assert.rejects(
      client.patch(ConfigMapResource, nn, cm('ssa'), 'apply'),
      (e: unknown) => isInvalid(e),
      'apply without fieldManager is 422',
    );
    await assert.rejects(
      client.patch(ConfigMapResource, nn, [{ op: 'add', path: '/data/x', value: '1' }], 'json', { fieldManager: 'x', force: true }),
      (e: unknown) => isInvalid(e),
      'force on a non-apply patch is 422',
    );
    await assert.rejects(
      client.patch(ConfigMapResource, nn, cm('ssa'), 'apply'),
      (e: unknown) => isInvalid(e),
      'apply without fieldManager is 422',
    );
  });
});

describe('client e2e: status subresource', () => {
  it('writes status only through updateStatus and spec only through update', async () => {
    const d = await client.create(DeploymentResource, deployment('status-d'));
    const withStatus = await client.updateStatus(DeploymentResource, {
      ...d,
      spec: { ...d.spec!, replicas: 5 },
      status: { replicas: 1, readyReplicas: 1 },
    });
    assert.equal(withStatus.status?.readyReplicas, 1);
    assert.equal(withStatus.spec?.replicas, 1, 'the status endpoint ignores spec');
    const viaMain = await client.update(DeploymentResource, {
      ...withStatus,
      spec: { ...withStatus.spec!, replicas: 3 },
      status: { replicas: 9 },
    });
    assert.equal(viaMain.spec?.replicas, 3);
    assert.equal(viaMain.status?.replicas, 1, 'the main endpoint ignores status');
    assert.ok((viaMain.metadata.generation ?? 0) > (d.metadata.generation ?? 0));
    const patched = await client.patch(
      DeploymentResource,
      { namespace: 'default', name: 'status-d' },
      { status: { readyReplicas: 2 } },
      'merge',
      { subresource: 'status' },
    );
    assert.equal(patched.status?.readyReplicas, 2);
    const status = await client.get(DeploymentResource, { namespace: 'default', name: 'status-d' }, { subresource: 'status' });
    assert.equal(status.status?.readyReplicas, 2);
    const scale = await client.get(DeploymentResource, { namespace: 'default', name: 'status-d' }, { subresource: 'scale' });
    assert.equal((scale as unknown as { spec: { replicas: number } }).spec.replicas, 3);
  });
});

describe('client e2e: discovery and REST mapping', () => {
  it('maps built-in kinds and finds a CRD installed after the mapper first looked', async () => {
    const mapper = new RestMapper({ discovery: new DiscoveryClient({ transport: client.transport }) });
    const d = await mapper.mappingFor({ group: 'apps', version: 'v1', kind: 'Deployment' });
    assert.equal(d.resource.plural, 'deployments');
    assert.ok(d.subresources.includes('status') && d.subresources.includes('scale'));
    assert.equal((await mapper.kindFor({ resource: 'cm' })).resource.kind, 'ConfigMap');
    const CRD = defineResource({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      kind: 'CustomResourceDefinition',
      plural: 'customresourcedefinitions',
      namespaced: false,
    });
    await client.create(CRD, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', properties: { size: { type: 'integer' } } },
                  status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
            },
          },
        ],
      },
    } as never);
    let widget;
    for (let i = 0; i < 100 && !widget; i++) {
      widget = await mapper.mappingFor({ group: 'example.com', kind: 'Widget' }).catch(() => undefined);
      if (!widget) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(widget, 'the CRD became discoverable');
    assert.equal(widget.resource.plural, 'widgets');
    assert.deepEqual(widget.shortNames, ['wd']);
    assert.deepEqual(widget.subresources, ['status']);
    const w = await client.create(widget.resource, {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { namespace: 'default', name: 'w1' },
      spec: { size: 1 },
    });
    assert.equal(w.metadata.name, 'w1');
    await assert.rejects(
      client.patch(widget.resource, { namespace: 'default', name: 'w1' }, { spec: { size: 2 } }, 'strategic'),
      (e: unknown) => e instanceof StatusError && e.status.code === 415,
    );
    const unknownField = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { namespace: 'default', name: 'w2' },
      spec: { size: 1, extra: true },
    };
    await assert.rejects(
      client.create(widget.resource, unknownField, { fieldValidation: 'Strict' }),
      (e: unknown) => e instanceof StatusError && e.status.code === 400,
    );
    const pruned = await client.create(widget.resource, unknownField, { fieldValidation: 'Ignore' });
    assert.deepEqual(pruned['spec'], { size: 1 });
  });
});
