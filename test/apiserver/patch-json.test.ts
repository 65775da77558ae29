// Imports the private patch/ face: unit tests of JSON and merge patch.
// JSON patch and merge patch, unit-tested as the pure functions they are: imported from the patch
// folder's face, since the apiserver layer's index exports only what clients of the server need.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch, applyMergePatch, PatchError } from '../../src/apiserver/patch/index.js';
import { ConvergeError } from 'kube-converge/meta';

const doc = () => ({ metadata: { name: 'a', labels: { x: '1' } }, spec: { list: [1, 2, 3], 'a/b': { '~k': 'v' } } });

function patchError(fn: () => unknown): PatchError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof PatchError, `expected PatchError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the patch to fail');
}

describe('JSON patch (RFC 6902)', () => {
  it('adds, removes and replaces object members and array elements', () => {
    const out = applyJsonPatch(doc(), [
      { op: 'add', path: '/metadata/labels/y', value: '2' },
      { op: 'remove', path: '/metadata/labels/x' },
      { op: 'replace', path: '/spec/list/0', value: 10 },
      { op: 'add', path: '/spec/list/1', value: 15 },
      { op: 'add', path: '/spec/list/-', value: 99 },
    ]);
    assert.deepEqual(out, { metadata: { name: 'a', labels: { y: '2' } }, spec: { list: [10, 15, 2, 3, 99], 'a/b': { '~k': 'v' } } });
  });

  it('unescapes ~1 and ~0 in pointer tokens', () => {
    const out = applyJsonPatch(doc(), [{ op: 'replace', path: '/spec/a~1b/~0k', value: 'w' }]) as ReturnType<typeof doc>;
    assert.equal(out.spec['a/b']['~k'], 'w');
  });

  it('moves and copies values, and the empty path addresses the whole document', () => {
    const out = applyJsonPatch(doc(), [
      { op: 'copy', from: '/metadata/name', path: '/metadata/labels/name' },
      { op: 'move', from: '/spec/list', path: '/list' },
    ]);
    assert.deepEqual(out, { metadata: { name: 'a', labels: { x: '1', name: 'a' } }, spec: { 'a/b': { '~k': 'v' } }, list: [1, 2, 3] });
    assert.deepEqual(applyJsonPatch(doc(), [{ op: 'replace', path: '', value: { a: 1 } }]), { a: 1 });
  });

  it('never mutates the input document, even when a later operation fails', () => {
    const input = doc();
    assert.throws(() =>
      applyJsonPatch(input, [
        { op: 'remove', path: '/metadata/labels/x' },
        { op: 'test', path: '/metadata/name', value: 'b' },
      ]),
    );
    assert.deepEqual(input, doc());
  });

  it('fails a test operation that does not hold with 422 and the real server message', () => {
    assert.deepEqual(applyJsonPatch(doc(), [{ op: 'test', path: '/spec/list', value: [1, 2, 3] }]), doc());
    const e = patchError(() => applyJsonPatch(doc(), [{ op: 'test', path: '/metadata/name', value: 'b' }]));
    assert.equal(e.httpCode, 422);
    assert.equal(e.message, 'testing value /metadata/name failed: test failed');
    assert.equal(e.code, 'CONVERGE_PATCH');
    assert.ok(ConvergeError.is(e));
  });

  it('rejects paths that do not exist and out-of-range or malformed indexes with 422', () => {
    assert.equal(
      patchError(() => applyJsonPatch(doc(), [{ op: 'replace', path: '/spec/nope', value: 1 }])).message,
      'replace operation does not apply: doc is missing key: /spec/nope: missing value',
    );
    assert.equal(patchError(() => applyJsonPatch(doc(), [{ op: 'remove', path: '/spec/nope' }])).httpCode, 422);
    assert.equal(patchError(() => applyJsonPatch(doc(), [{ op: 'add', path: '/missing/child', value: 1 }])).httpCode, 422);
    assert.equal(patchError(() => applyJsonPatch(doc(), [{ op: 'add', path: '/spec/list/4', value: 1 }])).httpCode, 422);
    assert.equal(patchError(() => applyJsonPatch(doc(), [{ op: 'remove', path: '/spec/list/01' }])).httpCode, 422);
    assert.equal(patchError(() => applyJsonPatch(doc(), [{ op: 'remove', path: '/spec/list/-' }])).httpCode, 422);
    assert.equal(patchError(() => applyJsonPatch(doc(), [{ op: 'frobnicate', path: '/spec' }])).message, 'Unexpected kind: frobnicate');
    assert.equal(patchError(() => applyJsonPatch(doc(), [{ op: 'move', from: '/spec', path: '/spec/inner' }])).httpCode, 422);
  });

  it('rejects a body that is not a list of operations with 400', () => {
    assert.equal(patchError(() => applyJsonPatch(doc(), { op: 'add' })).httpCode, 400);
    assert.equal(patchError(() => applyJsonPatch(doc(), ['add'])).httpCode, 400);
  });
});

describe('JSON merge patch (RFC 7386)', () => {
  it('merges objects recursively, deletes members set to null and replaces arrays whole', () => {
    const out = applyMergePatch(doc(), { metadata: { labels: { x: null, y: '2' } }, spec: { list: [7] } });
    assert.deepEqual(out, { metadata: { name: 'a', labels: { y: '2' } }, spec: { list: [7], 'a/b': { '~k': 'v' } } });
  });

  it('follows the RFC 7386 examples for non-object patches and targets', () => {
    assert.deepEqual(applyMergePatch({ a: 'b' }, ['c']), ['c']);
    assert.deepEqual(applyMergePatch({ a: 'foo' }, null), null);
    assert.deepEqual(applyMergePatch(['a', 'b'], { a: 'b', c: null }), { a: 'b' });
    assert.deepEqual(applyMergePatch({ a: [{ b: 'c' }] }, { a: [1] }), { a: [1] });
    assert.deepEqual(applyMergePatch({}, { a: { bb: { ccc: null } } }), { a: { bb: {} } });
  });

  it('returns a document that shares nothing with its inputs', () => {
    const input = doc();
    const patch = { spec: { extra: { deep: true } } };
    const out = applyMergePatch(input, patch) as ReturnType<typeof doc> & { spec: { extra: { deep: boolean } } };
    out.metadata.labels.x = 'changed';
    out.spec.extra.deep = false;
    assert.deepEqual(input, doc());
    assert.deepEqual(patch, { spec: { extra: { deep: true } } });
  });
});
