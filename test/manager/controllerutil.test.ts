// controllerutil's owner-reference and finalizer helpers on plain objects.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  setControllerReference,
  setOwnerReference,
  removeOwnerReference,
  removeControllerReference,
  addFinalizer,
  removeFinalizer,
  containsFinalizer,
  Finalizers,
} from 'kube-converge/manager';
import { ConfigMapResource, type KubeObject } from 'kube-converge/meta';

const owner = (over: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'platform.converge.dev/v1alpha1',
  kind: 'WebApp',
  metadata: { name: 'shop', namespace: 'default', uid: 'u-1', ...over },
});
// The owner with one metadata field absent.
const ownerWithout = (field: keyof KubeObject['metadata']): KubeObject => {
  const o = owner();
  delete o.metadata[field];
  return o;
};
const child = (ns = 'default'): KubeObject => ({ metadata: { name: 'shop-config', ...(ns ? { namespace: ns } : {}) } });

describe('owner references', () => {
  it('sets a controller reference that blocks owner deletion', () => {
    const c = child();
    setControllerReference(owner(), c);
    assert.deepEqual(c.metadata.ownerReferences, [
      {
        apiVersion: 'platform.converge.dev/v1alpha1',
        kind: 'WebApp',
        name: 'shop',
        uid: 'u-1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });

  it('updates the reference in place when the same owner (group, kind, name) is set again with a new uid or version', () => {
    const c = child();
    setControllerReference(owner(), c);
    setControllerReference({ ...owner({ uid: 'u-2' }), apiVersion: 'platform.converge.dev/v1' }, c);
    assert.equal(c.metadata.ownerReferences!.length, 1);
    assert.equal(c.metadata.ownerReferences![0]!.uid, 'u-2');
  });

  it('refuses a second controller with AlreadyOwnedError', () => {
    const c = child();
    setControllerReference(owner(), c);
    assert.throws(() => setControllerReference(owner({ name: 'other', uid: 'u-9' }), c), {
      code: 'CONVERGE_ALREADY_OWNED',
      message: 'Object default/shop-config is already owned by another WebApp controller shop',
    });
  });

  it('refuses cross-namespace owners and namespaced owners of cluster-scoped objects; a cluster-scoped owner may own anything', () => {
    assert.throws(() => setControllerReference(owner(), child('other')), /cross-namespace owner references are disallowed/);
    assert.throws(() => setOwnerReference(owner(), child('')), /cluster-scoped resource must not have a namespace-scoped owner/);
    const c = child();
    setOwnerReference(ownerWithout('namespace'), c);
    assert.equal(c.metadata.ownerReferences!.length, 1);
  });

  it('adds plain owner references without controller flags, next to a controller', () => {
    const c = child();
    setControllerReference(owner(), c);
    setOwnerReference(owner({ name: 'second', uid: 'u-3' }), c);
    assert.deepEqual(c.metadata.ownerReferences![1], {
      apiVersion: 'platform.converge.dev/v1alpha1',
      kind: 'WebApp',
      name: 'second',
      uid: 'u-3',
    });
    removeOwnerReference(owner({ name: 'second' }), c);
    assert.equal(c.metadata.ownerReferences!.length, 1);
    assert.throws(() => removeOwnerReference(owner({ name: 'second' }), c), { code: 'CONVERGE_INVALID_OPTION' });
  });

  it('removes a controller reference only for the controller itself, leaving plain owners', () => {
    const c = child();
    setControllerReference(owner(), c);
    setOwnerReference(owner({ name: 'second', uid: 'u-3' }), c);
    assert.throws(() => removeControllerReference(owner({ name: 'second' }), c), { code: 'CONVERGE_INVALID_OPTION' });
    removeControllerReference(owner({ uid: 'other-uid' }), c); // matched by group, kind and name, as every setter
    assert.deepEqual(
      c.metadata.ownerReferences!.map((r) => r.name),
      ['second'],
    );
    assert.throws(() => removeControllerReference(owner(), c), /WebApp shop is not the controller of shop-config/);
  });

  it('takes the kind from ownerResource when the owner object carries none, and rejects an owner without uid', () => {
    const c = child();
    setControllerReference({ metadata: { name: 'cm', namespace: 'default', uid: 'u-5' } }, c, { ownerResource: ConfigMapResource });
    assert.equal(c.metadata.ownerReferences![0]!.kind, 'ConfigMap');
    assert.equal(c.metadata.ownerReferences![0]!.apiVersion, 'v1');
    assert.throws(() => setControllerReference(ownerWithout('uid'), child()), { code: 'CONVERGE_INVALID_OPTION' });
  });
});

describe('finalizers', () => {
  it('add/remove report whether they changed the list, and remove drops every occurrence', () => {
    const o = child();
    assert.equal(addFinalizer(o, 'a/x'), true);
    assert.equal(addFinalizer(o, 'a/x'), false);
    o.metadata.finalizers!.push('a/x', 'b/y');
    assert.equal(containsFinalizer(o, 'a/x'), true);
    assert.equal(removeFinalizer(o, 'a/x'), true);
    assert.deepEqual(o.metadata.finalizers, ['b/y']);
    assert.equal(removeFinalizer(o, 'a/x'), false);
  });

  it('registry adds missing keys to a live object and runs nothing', async () => {
    const f = new Finalizers();
    let ran = 0;
    f.register('a/x', { finalize: () => void ran++ });
    f.register('b/y', { finalize: () => void ran++ });
    const o = child();
    assert.deepEqual(await f.finalize(o), { updated: true, statusUpdated: false, error: undefined });
    assert.deepEqual(o.metadata.finalizers, ['a/x', 'b/y']);
    assert.deepEqual(await f.finalize(o), { updated: false, statusUpdated: false, error: undefined });
    assert.equal(ran, 0);
  });

  it('registry runs present finalizers of a deleted object, removing only the keys whose finalizer succeeded', async () => {
    const f = new Finalizers();
    const ran: string[] = [];
    f.register('a/x', {
      finalize: () => {
        ran.push('a');
        return { statusUpdated: true };
      },
    });
    f.register('b/y', {
      finalize: async () => {
        ran.push('b');
        throw new Error('cleanup failed');
      },
    });
    f.register('c/z', {
      finalize: () => {
        ran.push('c');
      },
    });
    const o: KubeObject = {
      metadata: { name: 'x', namespace: 'default', deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['a/x', 'b/y', 'other/keep'] },
    };
    const out = await f.finalize(o);
    assert.deepEqual(ran, ['a', 'b']);
    assert.equal(out.updated, true);
    assert.equal(out.statusUpdated, true);
    assert.ok(out.error instanceof AggregateError);
    assert.equal((out.error.errors[0] as Error).message, 'cleanup failed');
    assert.deepEqual(o.metadata.finalizers, ['b/y', 'other/keep']);
  });

  it('registry refuses a key registered twice', () => {
    const f = new Finalizers();
    f.register('a/x', { finalize: () => {} });
    assert.throws(() => f.register('a/x', { finalize: () => {} }), { code: 'CONVERGE_INVALID_OPTION' });
  });
});
