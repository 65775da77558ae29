// jsonEqual: the deep equality the server and clients share, pinned case by case and against the
// canonical JSON text of random values.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonEqual } from 'kube-converge/meta';

/** JSON text with object keys sorted, so equal values have equal text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The same value with every object's keys in reverse order. */
function reversedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversedKeys);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.entries(v)
        .reverse()
        .map(([k, x]) => [k, reversedKeys(x)]),
    );
  }
  return v;
}

describe('jsonEqual', () => {
  it('ignores the order of object keys', () => {
    assert.equal(jsonEqual({ a: 1, b: { c: [1, 2], d: null } }, { b: { d: null, c: [1, 2] }, a: 1 }), true);
  });

  it('respects the order and length of arrays', () => {
    assert.equal(jsonEqual([1, 2], [2, 1]), false);
    assert.equal(jsonEqual([1, 2], [1, 2, 2]), false);
    assert.equal(jsonEqual([], {}), false);
    assert.equal(jsonEqual({ 0: 'a' }, ['a']), false);
  });

  it('treats a member set to undefined as an absent member, but not as null', () => {
    assert.equal(jsonEqual({ a: 1, b: undefined }, { a: 1 }), true);
    assert.equal(jsonEqual({ a: 1 }, { a: 1, b: undefined }), true);
    assert.equal(jsonEqual({ a: undefined }, { b: undefined }), true);
    assert.equal(jsonEqual({ a: null }, {}), false);
    assert.equal(jsonEqual({ a: undefined }, { a: null }), false);
    assert.equal(jsonEqual(undefined, undefined), true);
    assert.equal(jsonEqual(undefined, null), false);
  });

  it('compares scalars strictly: a number is not its string, and 0 equals -0', () => {
    assert.equal(jsonEqual(1, '1'), false);
    assert.equal(jsonEqual(1, 1.0), true);
    assert.equal(jsonEqual(0, -0), true);
    assert.equal(jsonEqual(true, 1), false);
    assert.equal(jsonEqual('', null), false);
  });

  it('counts only own properties, so inherited names are ordinary keys', () => {
    assert.equal(jsonEqual({ constructor: 'x' }, { other: 'x' }), false);
    assert.equal(jsonEqual({ toString: {} }, { valueOf: {} }), false);
    assert.equal(jsonEqual({ constructor: 'x' }, { constructor: 'x' }), true);
  });

  it('agrees with comparing canonical JSON text, and survives reordering keys', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    fc.assert(fc.property(json, json, (a, b) => jsonEqual(a, b) === (canonical(a) === canonical(b))));
    fc.assert(fc.property(json, (a) => jsonEqual(a, reversedKeys(a)) && jsonEqual(reversedKeys(a), a)));
  });
});
