// createMergePatch: the smallest RFC 7386 merge patch between two objects, with nulls for removals and
// optimistic-concurrency resourceVersions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMergePatch } from 'kube-converge/client';

/** RFC 7386 MergePatch, to check that applying the computed patch gives back the target. */
function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

describe('createMergePatch', () => {
  const old = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'a', namespace: 'ns', resourceVersion: '41', labels: { keep: '1', drop: '2' } },
    data: { same: 'x', changed: 'old', removed: 'gone' },
    list: [1, 2, 3],
  };

  it('holds only what changed: new values, null for removed keys, whole arrays', () => {
    const next = {
      ...old,
      metadata: { ...old.metadata, labels: { keep: '1', added: '3' } },
      data: { same: 'x', changed: 'new' },
      list: [1, 2],
    };
    const patch = createMergePatch(old, next);
    assert.deepEqual(patch, { metadata: { labels: { drop: null, added: '3' } }, data: { changed: 'new', removed: null }, list: [1, 2] });
    assert.deepEqual(applyMergePatch(old, patch), next);
  });

  it('is empty for equal objects, and treats undefined fields as absent', () => {
    assert.deepEqual(createMergePatch(old, structuredClone(old)), {});
    assert.deepEqual(createMergePatch({ a: 1, b: undefined }, { a: 1 }), {});
  });

  it('replaces a value whose type changes between object and scalar', () => {
    assert.deepEqual(createMergePatch({ a: { b: 1 } }, { a: 'flat' }), { a: 'flat' });
    assert.deepEqual(createMergePatch({ a: 'flat' }, { a: { b: 1 } }), { a: { b: 1 } });
  });

  it('with optimisticLock carries the old resourceVersion, even when nothing else changed', () => {
    assert.deepEqual(createMergePatch(old, old, { optimisticLock: true }), { metadata: { resourceVersion: '41' } });
    const next = { ...old, metadata: { ...old.metadata, resourceVersion: '99', labels: { keep: '1', drop: '2', x: 'y' } } };
    assert.deepEqual(createMergePatch(old, next, { optimisticLock: true }), { metadata: { resourceVersion: '41', labels: { x: 'y' } } });
  });

  it('refuses an optimistic lock without a resourceVersion to lock on', () => {
    assert.throws(() => createMergePatch({ metadata: {} }, { metadata: { name: 'x' } }, { optimisticLock: true }), {
      code: 'CONVERGE_INVALID_OPTION',
    });
  });

  it('does not modify its inputs', () => {
    const a = structuredClone(old);
    const b = { ...structuredClone(old), data: {} };
    const before = JSON.stringify([a, b]);
    createMergePatch(a, b, { optimisticLock: true });
    assert.equal(JSON.stringify([a, b]), before);
  });
});
