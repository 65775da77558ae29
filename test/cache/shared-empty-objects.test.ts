// The informer stores decoded objects with every empty sub-object replaced by one shared frozen `{}`
// (managedFields are mostly `"f:x":{}`), which must change nothing a reader can observe but identity.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from 'kube-converge/meta';
import { cm } from './fake-client.js';
import { harness } from './helpers.js';

/** A ConfigMap with managedFields shaped as a server writes them, empty objects in objects and arrays. */
function withFields(name: string, value: string): KubeObject {
  return {
    ...cm(name),
    metadata: {
      namespace: 'default',
      name,
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Update',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:labels': {} } },
        },
      ],
      annotations: { note: value },
    },
    data: { a: value },
    binaryData: {},
    extra: [{}, { kept: {} }],
  } as KubeObject;
}

const fieldsOf = (o: KubeObject) => (o.metadata.managedFields![0]!.fieldsV1 as Record<string, Record<string, object>>) ?? {};

describe('shared empty objects in the informer cache', () => {
  it('stores objects deep-equal to what the server sent, frozen, with one shared empty object for every {}', async () => {
    const h = harness();
    h.client.upsert(withFields('a', '1'));
    h.client.upsert(withFields('b', '2'));
    h.start();
    await h.advance(0);
    const a = h.informer.getIndexer().getByKey('default/a')!;
    const b = h.informer.getIndexer().getByKey('default/b')!;
    const sent = withFields('a', '1');
    const unversioned = (o: { metadata: KubeObject['metadata']; [field: string]: unknown }) => ({
      ...o,
      metadata: { ...o.metadata, resourceVersion: undefined },
    });
    assert.deepEqual(unversioned(a), unversioned({ ...sent, apiVersion: a.apiVersion, kind: a.kind }));
    const empty = fieldsOf(a)['f:data']!['.'];
    assert.deepEqual(empty, {});
    assert.ok(Object.isFrozen(empty));
    assert.equal(fieldsOf(a)['f:data']!['f:a'], empty, 'empty objects within one object are one instance');
    assert.equal(fieldsOf(b)['f:metadata']!['f:labels'], empty, 'and across objects');
    const extra = (a as unknown as { extra: object[]; binaryData: object }).extra;
    assert.equal(extra[0], empty, 'empty objects in arrays are shared too');
    assert.equal((extra[1] as { kept: object }).kept, empty);
    assert.notEqual(extra[1], empty, 'a non-empty object is not');
    assert.equal((a as unknown as { binaryData: object }).binaryData, empty);
    assert.throws(() => {
      (empty as Record<string, unknown>)['x'] = 1;
    }, TypeError);
    await h.stop();
  });

  it('shares empty objects of objects that arrive by watch after the sync as well', async () => {
    const h = harness();
    h.client.upsert(withFields('a', '1'));
    h.start();
    await h.advance(0);
    h.client.upsert(withFields('a', '2'));
    await h.advance(0);
    const a = h.informer.getIndexer().getByKey('default/a')!;
    assert.equal(a.metadata.annotations?.['note'], '2');
    assert.equal(fieldsOf(a)['f:data']!['.'], fieldsOf(a)['f:metadata']!['f:labels']);
    assert.ok(Object.isFrozen(fieldsOf(a)['f:data']!['.']));
    await h.stop();
  });
});
