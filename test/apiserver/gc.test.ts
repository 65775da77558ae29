// Owner-reference garbage collection (opt-in, like envtest's absence of it): Background, Foreground and Orphan deletion.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, cm, type Api } from './helpers.js';

const CMS = '/api/v1/namespaces/default/configmaps';

async function until(api: Api, path: string, status: number): Promise<number> {
  let s = -1;
  for (let i = 0; i < 100 && s !== status; i++) s = (await api.call('GET', path)).status;
  return s;
}

async function ownerAndDependent(api: Api, block = false) {
  const owner = (await api.call('POST', CMS, cm('owner'))).body;
  const ref = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: 'owner',
    uid: owner.metadata.uid,
    ...(block ? { blockOwnerDeletion: true } : {}),
  };
  const dep = (await api.call('POST', CMS, cm('dep', {}, { ownerReferences: [ref] }))).body;
  return { owner, dep };
}

describe('garbage collection', () => {
  it('is off by default: dependents outlive their owner, as in envtest', async () => {
    await using api = await startApi();
    await ownerAndDependent(api);
    await api.call('DELETE', `${CMS}/owner`);
    await api.call('GET', '/healthz');
    assert.equal((await api.call('GET', `${CMS}/dep`)).status, 200);
  });

  it('deletes dependents in the background once their owner is gone', async () => {
    await using api = await startApi({ garbageCollection: true });
    await ownerAndDependent(api);
    await api.call('DELETE', `${CMS}/owner`, { propagationPolicy: 'Background' });
    assert.equal(await until(api, `${CMS}/dep`, 404), 404);
  });

  it('keeps a dependent with another live owner, dropping only the dead reference', async () => {
    await using api = await startApi({ garbageCollection: true });
    const a = (await api.call('POST', CMS, cm('a'))).body;
    const b = (await api.call('POST', CMS, cm('b'))).body;
    const refs = [a, b].map((o) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.metadata.name, uid: o.metadata.uid }));
    await api.call('POST', CMS, cm('dep', {}, { ownerReferences: refs }));
    await api.call('DELETE', `${CMS}/a`);
    let refsLeft = 2;
    for (let i = 0; i < 100 && refsLeft !== 1; i++) refsLeft = (await api.call('GET', `${CMS}/dep`)).body.metadata.ownerReferences.length;
    assert.equal(refsLeft, 1);
  });

  it('deletes a Foreground owner only after its blocking dependents are gone', async () => {
    await using api = await startApi({ garbageCollection: true });
    await ownerAndDependent(api, true);
    const d = await api.call('DELETE', `${CMS}/owner`, { propagationPolicy: 'Foreground' });
    assert.deepEqual(d.body.metadata.finalizers, ['foregroundDeletion']);
    assert.equal(await until(api, `${CMS}/dep`, 404), 404);
    assert.equal(await until(api, `${CMS}/owner`, 404), 404);
  });

  it('orphans dependents on Orphan deletes', async () => {
    await using api = await startApi({ garbageCollection: true });
    await ownerAndDependent(api);
    await api.call('DELETE', `${CMS}/owner`, { propagationPolicy: 'Orphan' });
    assert.equal(await until(api, `${CMS}/owner`, 404), 404);
    const dep = (await api.call('GET', `${CMS}/dep`)).body;
    assert.equal(dep.metadata.ownerReferences, undefined);
  });

  it('collects a dependent created with a dangling owner reference', async () => {
    await using api = await startApi({ garbageCollection: true });
    await api.call(
      'POST',
      CMS,
      cm('dep', {}, { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'no-such-uid' }] }),
    );
    assert.equal(await until(api, `${CMS}/dep`, 404), 404);
  });
});
