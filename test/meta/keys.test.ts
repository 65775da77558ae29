// Object keys (namespace/name): building, splitting and their errors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { objectKey, splitKey, keyOf, InvalidKeyError } from 'kube-converge/meta';

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
  it('rejects an object without metadata.name', () => {
    assert.throws(() => objectKey({ metadata: {} }), InvalidKeyError);
  });
});
