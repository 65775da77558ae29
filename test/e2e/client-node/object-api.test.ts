// @kubernetes/client-node's KubernetesObjectApi (the generic client that finds resources through discovery) against
// `converge apiserver` run as a process: create, read, merge patch, and server-side apply both creating an object and
// taking a field over from another manager with force; then the same for a custom resource of a CRD it created.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ApiException, KubernetesObjectApi, PatchStrategy, type V1ConfigMap } from '@kubernetes/client-node';
import { startClientNodeEnv, type ClientNodeEnv } from './harness.js';

describe('client-node KubernetesObjectApi against converge apiserver', () => {
  let env: ClientNodeEnv;
  let objects: KubernetesObjectApi;
  before(async () => {
    env = await startClientNodeEnv('client-node-objects');
    objects = KubernetesObjectApi.makeApiClient(env.kc);
  });
  // `before` may have failed before the server started.
  after(async () => {
    if (env !== undefined) await env.server.stop();
  });

  const configMap = (name: string, data: Record<string, string>): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: env.namespace },
    data,
  });

  it('creates and reads a ConfigMap, then merge-patches it', async () => {
    const created = await objects.create(configMap('generic', { a: '1' }));
    assert.equal(created.kind, 'ConfigMap');
    assert.deepEqual(created.data, { a: '1' });
    const read = await objects.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'generic', namespace: env.namespace } });
    assert.equal(read.metadata?.uid, created.metadata?.uid);
    const patched = await objects.patch(
      configMap('generic', { b: '2' }),
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.MergePatch,
    );
    assert.deepEqual(patched.data, { a: '1', b: '2' });
  });

  it('creates a ConfigMap by server-side apply, answers a conflicting apply with 409, and takes the field over with force', async () => {
    const applied = await objects.patch(
      configMap('applied', { owner: 'first' }),
      undefined,
      undefined,
      'first',
      undefined,
      PatchStrategy.ServerSideApply,
    );
    assert.deepEqual(applied.data, { owner: 'first' });
    assert.deepEqual(
      applied.metadata?.managedFields?.map((f) => [f.manager, f.operation]),
      [['first', 'Apply']],
    );

    const conflict: unknown = await objects
      .patch(configMap('applied', { owner: 'second' }), undefined, undefined, 'second', undefined, PatchStrategy.ServerSideApply)
      .then(
        () => assert.fail('a conflicting apply succeeded'),
        (e: unknown) => e,
      );
    assert.ok(conflict instanceof ApiException, `not an ApiException: ${String(conflict)}`);
    assert.equal(conflict.code, 409);

    const forced = await objects.patch(
      configMap('applied', { owner: 'second' }),
      undefined,
      undefined,
      'second',
      true,
      PatchStrategy.ServerSideApply,
    );
    assert.deepEqual(forced.data, { owner: 'second' });
    assert.deepEqual(
      forced.metadata?.managedFields?.map((f) => f.manager),
      ['second'],
    );
  });

  it('creates a CustomResourceDefinition, then creates, merge-patches, force-applies and lists a custom resource of it', async () => {
    await objects.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } } },
              },
            },
          },
        ],
      },
    });
    const widget = (spec: Record<string, unknown>) => ({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: env.namespace },
      spec,
    });
    const created = await objects.create(widget({ size: 1 }));
    assert.deepEqual((created as { spec?: unknown }).spec, { size: 1 });
    const patched = await objects.patch(widget({ color: 'blue' }), undefined, undefined, undefined, undefined, PatchStrategy.MergePatch);
    assert.deepEqual((patched as { spec?: unknown }).spec, { size: 1, color: 'blue' });
    // The create's manager owns spec.size, so taking it over by apply needs force; spec.color stays the patcher's.
    const applied = await objects.patch(widget({ size: 3 }), undefined, undefined, 'sizer', true, PatchStrategy.ServerSideApply);
    assert.deepEqual((applied as { spec?: unknown }).spec, { size: 3, color: 'blue' });
    const listed = await objects.list('example.com/v1', 'Widget', env.namespace);
    assert.deepEqual(
      listed.items.map((w) => w.metadata?.name),
      ['w'],
    );
  });
});
