// Owner-reference helpers: the controller reference, ownership checks and lookups by UID.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  getControllerOf,
  isControlledBy,
  hasControllerReference,
  ownerReferencesByUid,
  hasOwnerReference,
  newControllerRef,
  InvalidOptionError,
} from 'kube-converge/meta';

const deploy = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'ns', uid: 'uid-d' } };
const other = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'ns', uid: 'uid-c' } };
const rs = {
  metadata: {
    name: 'web-123',
    ownerReferences: [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'cfg', uid: 'uid-c' },
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-d', controller: true },
    ],
  },
};

describe('owner references', () => {
  it('finds the controller reference among several owners', () => {
    assert.equal(getControllerOf(rs)?.uid, 'uid-d');
    assert.equal(hasControllerReference(rs), true);
    assert.equal(getControllerOf({ metadata: {} }), undefined);
    assert.equal(
      getControllerOf({ metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u', controller: false }] } }),
      undefined,
    );
  });

  it('decides controlled-by on the UID of the controller reference only', () => {
    assert.equal(isControlledBy(rs, deploy), true);
    assert.equal(isControlledBy(rs, other), false, 'a plain owner is not the controller');
    assert.equal(isControlledBy(rs, { metadata: { uid: 'uid-x' } }), false);
    assert.equal(isControlledBy(rs, { metadata: {} }), false);
    assert.equal(
      isControlledBy(
        { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: '', controller: true }] } },
        { metadata: { uid: '' } },
      ),
      false,
    );
  });

  it('lists references by UID', () => {
    assert.deepEqual(
      ownerReferencesByUid(rs, 'uid-c').map((r) => r.kind),
      ['ConfigMap'],
    );
    assert.deepEqual(ownerReferencesByUid(rs, 'nope'), []);
    assert.deepEqual(ownerReferencesByUid({ metadata: {} }, 'uid-c'), []);
  });

  it('matches owners by group, kind and name, ignoring version and UID', () => {
    assert.equal(hasOwnerReference(rs, deploy), true);
    assert.equal(hasOwnerReference(rs, { ...deploy, apiVersion: 'apps/v1beta2', metadata: { name: 'web', uid: 'recreated' } }), true);
    assert.equal(hasOwnerReference(rs, { ...deploy, apiVersion: 'extensions/v1beta1' }), false);
    assert.equal(hasOwnerReference(rs, { ...deploy, metadata: { name: 'api', uid: 'uid-d' } }), false);
    assert.equal(hasOwnerReference(rs, other), true);
  });

  it('builds a controller reference that blocks owner deletion by default', () => {
    assert.deepEqual(newControllerRef(deploy), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'web',
      uid: 'uid-d',
      controller: true,
      blockOwnerDeletion: true,
    });
    assert.equal(newControllerRef(deploy, { blockOwnerDeletion: false }).blockOwnerDeletion, false);
  });

  it('refuses to reference an owner that lacks apiVersion, kind, name or uid', () => {
    assert.throws(
      () => newControllerRef({ ...deploy, metadata: { name: 'web' } }),
      (e: unknown) => e instanceof InvalidOptionError && e.path === 'owner.metadata.uid',
    );
    assert.throws(() => newControllerRef({ ...deploy, kind: '' }), InvalidOptionError);
    const { apiVersion: _absent, ...unversioned } = deploy;
    assert.throws(() => newControllerRef(unversioned), InvalidOptionError);
    assert.throws(() => newControllerRef({ ...deploy, metadata: { uid: 'u' } }), InvalidOptionError);
  });
});
