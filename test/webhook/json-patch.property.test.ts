// Imports the webhook layer's private JSON patch diff, which the defaulting handler answers with.
// The defaulter's JSON patch: for any two JSON documents, applying createJsonPatch(a, b) to a gives b,
// and a document compared with itself gives no operation at all.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonEqual } from 'kube-converge/meta';
import { createJsonPatch, type JsonPatchOp } from '../../src/webhook/json-patch-diff.js';

/** A minimal RFC 6902 applier for add/remove/replace, enough to check the patches we make. */
function apply(doc: unknown, ops: JsonPatchOp[]): unknown {
  let root = structuredClone(doc);
  for (const op of ops) {
    const tokens =
      op.path === ''
        ? []
        : op.path
            .slice(1)
            .split('/')
            .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (tokens.length === 0) {
      root = structuredClone(op.value);
      continue;
    }
    let parent = root as Record<string, unknown> | unknown[];
    for (const t of tokens.slice(0, -1)) parent = (parent as Record<string, unknown>)[t] as Record<string, unknown>;
    const last = tokens.at(-1)!;
    if (op.op === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (Array.isArray(parent)) {
      if (op.op === 'add') parent.splice(Number(last), 0, structuredClone(op.value));
      else parent[Number(last)] = structuredClone(op.value);
    } else {
      // defineProperty, not assignment: a `__proto__` member is data in JSON, never the prototype.
      Object.defineProperty(parent, last, { value: structuredClone(op.value), enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const keyed = fc.dictionary(fc.constantFrom('a', 'b', 'c/d', 'e~f', '', '__proto__'), json, { maxKeys: 4 });

describe('createJsonPatch', () => {
  it('gives a patch that turns any document into any other', () => {
    fc.assert(
      fc.property(fc.oneof(json, keyed), fc.oneof(json, keyed), (a, b) => {
        assert.ok(jsonEqual(apply(a, createJsonPatch(a, b)), b));
      }),
      { numRuns: 500 },
    );
  });

  it('gives no operation for equal documents, and one add for one new field', () => {
    fc.assert(fc.property(json, (a) => createJsonPatch(a, structuredClone(a)).length === 0));
    assert.deepEqual(createJsonPatch({ spec: { image: 'x' } }, { spec: { image: 'x', 'a/b': 1 } }), [
      { op: 'add', path: '/spec/a~1b', value: 1 },
    ]);
  });
});
