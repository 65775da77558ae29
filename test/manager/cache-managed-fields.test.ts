// The manager's cache drops managedFields by default; `keepManagedFields` opts out, per kind or for all.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer } from 'kube-converge/apiserver';
import { createClient } from 'kube-converge/client';
import { createManager, type CacheOptions } from 'kube-converge/manager';
import { ConfigMapResource, SecretResource, noopLogger } from 'kube-converge/meta';
import { eventually, restConfigFor } from 'kube-converge/testing';

/** Writes one ConfigMap and one Secret (the server records managedFields for both), then reads them from a manager's cache. */
async function cachedPair(cache?: CacheOptions) {
  const api = await startApiServer({ port: 0 });
  const admin = createClient({ config: restConfigFor(api) });
  const mgr = await createManager({ config: restConfigFor(api), logger: noopLogger, ...(cache ? { cache } : {}) });
  try {
    await admin.create(ConfigMapResource, { metadata: { name: 'cm', namespace: 'default' }, data: { a: '1' } });
    await admin.create(SecretResource, { metadata: { name: 's', namespace: 'default' }, stringData: { b: '2' } });
    const fromServer = await mgr.apiReader.get(ConfigMapResource, { namespace: 'default', name: 'cm' });
    await mgr.getInformer(ConfigMapResource);
    await mgr.getInformer(SecretResource);
    const run = mgr.start();
    await mgr.elected();
    const cm = (await eventually(() => mgr.client.get(ConfigMapResource, { namespace: 'default', name: 'cm' })))!;
    const secret = (await eventually(() => mgr.client.get(SecretResource, { namespace: 'default', name: 's' })))!;
    await mgr.shutdown();
    await run;
    return { fromServer, cm, secret };
  } finally {
    admin.close();
    await api.stop();
  }
}

describe('managedFields in the manager cache', () => {
  it('are dropped from cached objects by default, while reads from the API server keep them', async () => {
    const { fromServer, cm, secret } = await cachedPair();
    assert.ok((fromServer.metadata.managedFields?.length ?? 0) > 0, 'the server records managedFields');
    assert.equal(cm.metadata.managedFields, undefined);
    assert.equal(secret.metadata.managedFields, undefined);
    assert.deepEqual(cm.data, { a: '1' });
  });

  it('are kept for every kind with keepManagedFields in the defaults, and for one kind when set in byResource', async () => {
    const all = await cachedPair({ defaults: { keepManagedFields: true } });
    assert.ok((all.cm.metadata.managedFields?.length ?? 0) > 0);
    assert.ok((all.secret.metadata.managedFields?.length ?? 0) > 0);
    const one = await cachedPair({ byResource: [{ resource: SecretResource, keepManagedFields: true }] });
    assert.equal(one.cm.metadata.managedFields, undefined);
    assert.ok((one.secret.metadata.managedFields?.length ?? 0) > 0);
  });

  it('are dropped before a transform of the options runs, which sees the object without them', async () => {
    const seen: boolean[] = [];
    const { cm } = await cachedPair({
      defaults: {
        transform: (o) => {
          seen.push(o.metadata.managedFields !== undefined);
          o.metadata.labels = { transformed: 'yes' };
          return o;
        },
      },
    });
    assert.equal(cm.metadata.labels?.['transformed'], 'yes');
    assert.equal(cm.metadata.managedFields, undefined);
    assert.ok(seen.length > 0 && seen.every((had) => !had), 'the transform never saw managedFields');
  });
});
