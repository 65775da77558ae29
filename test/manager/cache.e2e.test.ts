// End-to-end: the manager's shared cache and split client against a real local API server.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer } from 'kube-converge/apiserver';
import { createClient } from 'kube-converge/client';
import { createManager, createOrPatch, stripManagedFields } from 'kube-converge/manager';
import { ConfigMapResource, NamespaceResource, SecretResource, noopLogger } from 'kube-converge/meta';
import { eventually, restConfigFor } from 'kube-converge/testing';

describe('manager cache and split client', () => {
  it('stripManagedFields drops metadata.managedFields and keeps the rest', () => {
    const o = { metadata: { name: 'x', managedFields: [{ manager: 'kubectl' }], labels: { a: 'b' } } };
    assert.deepEqual(stripManagedFields(o), { metadata: { name: 'x', labels: { a: 'b' } } });
  });

  it('watches only the configured namespaces and labels, stores transformed frozen objects, and refuses reads outside them', async () => {
    const api = await startApiServer({ port: 0 });
    const admin = createClient({ config: restConfigFor(api) });
    for (const ns of ['ns-a', 'ns-b', 'ns-c']) {
      await admin.create(NamespaceResource, { metadata: { name: ns } });
      await admin.create(ConfigMapResource, { metadata: { name: 'cm', namespace: ns }, data: { ns } });
      await admin.create(SecretResource, { metadata: { name: 'kept', namespace: ns, labels: { keep: 'yes' } } });
      await admin.create(SecretResource, { metadata: { name: 'dropped', namespace: ns } });
    }
    const mgr = await createManager({
      config: restConfigFor(api),
      logger: noopLogger,
      cache: {
        defaults: { labelSelector: 'keep=yes', transform: stripManagedFields },
        byResource: [
          {
            resource: ConfigMapResource,
            namespaces: ['ns-a', 'ns-b'],
            labelSelector: '',
            transform: (o) => {
              o.metadata.annotations = { ...o.metadata.annotations, transformed: 'yes' };
              return stripManagedFields(o);
            },
          },
        ],
      },
    });
    // The first read of a kind starts its informer and says the cache is not ready yet.
    assert.throws(() => mgr.client.get(SecretResource, { namespace: 'ns-a', name: 'kept' }), { code: 'CONVERGE_CACHE_NOT_SYNCED' });
    await mgr.getInformer(ConfigMapResource);
    const run = mgr.start();
    try {
      await mgr.elected();
      const cms = mgr.client
        .list(ConfigMapResource)
        .map((c) => c.metadata.namespace)
        .sort();
      assert.deepEqual(cms, ['ns-a', 'ns-b']);
      assert.deepEqual(
        mgr.client.list(ConfigMapResource, { namespace: 'ns-b' }).map((c) => c.data?.['ns']),
        ['ns-b'],
      );
      assert.throws(() => mgr.client.get(ConfigMapResource, { namespace: 'ns-c', name: 'cm' }), { code: 'CONVERGE_INVALID_OPTION' });
      const cm = mgr.client.get(ConfigMapResource, { namespace: 'ns-a', name: 'cm' })!;
      assert.equal(cm.metadata.annotations?.['transformed'], 'yes');
      assert.throws(() => {
        (cm.data as Record<string, string>)['ns'] = 'mutated';
      }, TypeError);
      assert.equal(mgr.client.get(ConfigMapResource, { namespace: 'ns-a', name: 'cm' }), cm, 'reads are zero-copy');
      const secrets = await eventually(() => mgr.client.list(SecretResource));
      assert.deepEqual(secrets.map((s) => `${s.metadata.namespace}/${s.metadata.name}`).sort(), ['ns-a/kept', 'ns-b/kept', 'ns-c/kept']);
      assert.equal(mgr.client.list(SecretResource, { labelSelector: 'keep!=yes' }).length, 0);
      const fresh = await mgr.apiReader.get(SecretResource, { namespace: 'ns-a', name: 'dropped' });
      assert.equal(fresh.metadata.name, 'dropped');
    } finally {
      await mgr.shutdown();
      admin.close();
      await api.stop();
    }
    await run;
  });

  it('createOrPatch creates, writes nothing when mutate changed nothing, patches changes, and refuses renames', async () => {
    const api = await startApiServer({ port: 0 });
    const mgr = await createManager({ config: restConfigFor(api), logger: noopLogger });
    await mgr.getInformer(ConfigMapResource);
    const run = mgr.start();
    try {
      await mgr.elected();
      const key = { metadata: { name: 'patched', namespace: 'default' } };
      const first = await createOrPatch(mgr.client, ConfigMapResource, key, (cm) => {
        cm.data = { a: '1' };
      });
      assert.equal(first.result, 'created');
      await eventually(() => mgr.client.get(ConfigMapResource, { namespace: 'default', name: 'patched' }) !== undefined);
      const same = await createOrPatch(mgr.client, ConfigMapResource, key, (cm) => {
        cm.data = { a: '1' };
      });
      assert.equal(same.result, 'unchanged');
      const changed = await createOrPatch(mgr.client, ConfigMapResource, key, (cm) => {
        cm.data = { a: '2' };
        cm.metadata.labels = { tier: 'web' };
      });
      assert.equal(changed.result, 'updated');
      assert.deepEqual(changed.object.data, { a: '2' });
      assert.equal(changed.object.metadata.labels?.['tier'], 'web');
      await assert.rejects(
        createOrPatch(mgr.client, ConfigMapResource, key, (cm) => {
          cm.metadata.name = 'renamed';
        }),
        { code: 'CONVERGE_INVALID_OPTION' },
      );
    } finally {
      await mgr.shutdown();
      await api.stop();
    }
    await run;
  });
});
