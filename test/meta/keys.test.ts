// Object keys (namespace/name): building, splitting and their errors; and, from meta's private internal
// face, the key with its member cluster that explain and the dashboard both show.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { objectKey, splitKey, keyOf, InvalidKeyError } from 'kube-converge/meta';
import { clusterKeyOf } from '../../src/meta/internal.js';

describe('object keys', () => {
  it('uses namespace/name for namespaced objects and name for cluster-scoped ones', () => {
    assert.equal(objectKey({ metadata: { namespace: 'default', name: 'a' } }), 'default/a');
    assert.equal(objectKey({ metadata: { name: 'node-1' } }), 'node-1');
    assert.equal(keyOf({ namespace: '', name: 'x' }), 'x');
  });
  it('splits keys like SplitMetaNamespaceKey, rejecting more than one slash', () => {
    assert.deepEqual(splitKey('ns/n'), { namespace: 'ns', name: 'n' });
    assert.deepEqual(splitKey('n'), { namespace: '', name: 'n' });
    assert.throws(() => splitKey('a/b/c'), InvalidKeyError);
  });
  it('names the member cluster after the key only when the cluster is a string', () => {
    assert.equal(clusterKeyOf({ namespace: 'default', name: 'app', cluster: 'member-0' }), 'default/app in cluster member-0');
    assert.equal(clusterKeyOf({ name: 'node-1', cluster: 'member-0' }), 'node-1 in cluster member-0');
    assert.equal(clusterKeyOf({ namespace: 'default', name: 'app', cluster: undefined }), 'default/app');
    assert.equal(clusterKeyOf({ namespace: 'default', name: 'app', cluster: 3 }), 'default/app');
  });
  it('rejects an object without metadata.name', () => {
    assert.throws(() => objectKey({ metadata: {} }), InvalidKeyError);
  });
});
