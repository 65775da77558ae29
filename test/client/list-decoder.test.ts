// Imports the client's private ListDecoder: its chunk-by-chunk contract is tested here directly, beside the list calls end to end.
// ListDecoder: list bodies split at every offset and one byte at a time, whitespace, escapes, multi-byte
// text split between chunks, `items: null`, bodies without items, and malformed bodies, which must throw
// ListDecodeError and never give a partial list. The oracle is JSON.parse of the whole body.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ListDecodeError } from 'kube-converge/client';
import { ListDecoder } from '../../src/client/list-decoder.js';

function decode(chunks: Buffer[]): unknown {
  const d = new ListDecoder();
  for (const c of chunks) d.write(c);
  return d.end();
}

/** What the decoder must return: the body as JSON.parse reads it, with a null `items` as an empty array. */
function expected(body: string): unknown {
  const v = JSON.parse(body) as { items?: unknown };
  if (v.items === null) v.items = [];
  return v;
}

/** Every way to cut `buf` in two, and one byte at a time. */
function splits(buf: Buffer): Buffer[][] {
  const out: Buffer[][] = [[buf], Array.from(buf, (_, i) => buf.subarray(i, i + 1))];
  for (let cut = 0; cut <= buf.length; cut++) out.push([buf.subarray(0, cut), buf.subarray(cut)]);
  return out;
}

const valid: Record<string, string> = {
  'a list':
    '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"abc"},"items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"},"data":{"k":"v"}}]}',
  'empty items': '{"metadata":{"resourceVersion":"1"},"items":[]}',
  'items null': '{"metadata":{"resourceVersion":"1"},"items":null}',
  'items before metadata': '{"items":[{"a":1}],"metadata":{"resourceVersion":"9","continue":""}}',
  'whitespace everywhere':
    ' \r\n\t{ "kind" : "List" ,\n "items" :\n [ \n { "a" : [ 1 , { "b" : null } ] } ,\n\t{ } \n ] , "metadata" : { } } \n ',
  'strings with braces, brackets, quotes and backslashes': String.raw`{"items":[{"s":"}]{[,\"\\","t":"\\"},{"u":"\\\"}"}],"metadata":{"continue":"\"}]"}}`,
  'multi-byte text': '{"metadata":{"continue":"ñ✓"},"items":[{"name":"ünïcødé ✓ 𝄞"},{"ascii":"x"},{"e":"\\u00e9 é"}]}',
  'a nested key named items is data': '{"metadata":{"items":[1,2]},"items":[{"items":[{"x":1}]}]}',
  'items spelled with an escape': '{"\\u0069tems":[{"a":1}]}',
  'a Status, no items': '{"kind":"Status","apiVersion":"v1","status":"Success","details":{"name":"x"}}',
  'deep nesting': '{"items":[{"a":{"b":{"c":[[[{"d":[]}]]]}}}]}',
};

const malformed: Record<string, string> = {
  empty: '',
  'only whitespace': '  \n',
  'not an object': '[{"a":1}]',
  'a string': '"items"',
  'cut inside an item': '{"items":[{"a":1}',
  'cut inside a string': '{"items":[{"a":"b',
  'cut after a backslash': '{"items":[{"a":"\\',
  'cut after the items': '{"items":[{"a":1}]',
  'an item that is not an object': '{"items":[1]}',
  'a null item': '{"items":[null]}',
  'items an object': '{"items":{"a":1}}',
  'items a number': '{"items":5}',
  'a trailing comma': '{"items":[{},]}',
  'a missing comma': '{"items":[{}{}]}',
  'a leading comma': '{"items":[,{}]}',
  'an item that is not JSON': '{"items":[{"a":}]}',
  'an unquoted key in an item': '{"items":[{a:1}]}',
  'a bad envelope': '{"kind":,"items":[]}',
  'text after the list': '{"items":[]} x',
  'two lists': '{"items":[]}{"items":[]}',
  'items twice': '{"items":[{"a":1}],"items":[]}',
  'mismatched brackets in an item': '{"items":[{"a":[1}]}]}',
};

describe('list decoder', () => {
  for (const [name, body] of Object.entries(valid)) {
    it(`decodes ${name} whatever the chunk boundaries`, () => {
      const want = expected(body);
      for (const chunks of splits(Buffer.from(body))) assert.deepEqual(decode(chunks), want);
    });
  }

  for (const [name, body] of Object.entries(malformed)) {
    it(`refuses ${name} with ListDecodeError, wherever the chunks split`, () => {
      for (const chunks of splits(Buffer.from(body))) assert.throws(() => decode(chunks), ListDecodeError);
    });
  }

  it('names the item that is not JSON', () => {
    assert.throws(
      () => decode([Buffer.from('{"items":[{"a":1},{"b":1,}]}')]),
      (e: unknown) => e instanceof ListDecodeError && e.where === 'items[1]' && e.code === 'CONVERGE_LIST_DECODE',
    );
  });

  it('refuses write() and end() after end()', () => {
    const d = new ListDecoder();
    d.write(Buffer.from('{"items":[]}'));
    d.end();
    assert.throws(() => d.end(), ListDecodeError);
    assert.throws(() => d.write(Buffer.from(' ')), ListDecodeError);
  });

  const item = fc.oneof(
    fc.object({ maxDepth: 3 }),
    fc.record({
      metadata: fc.record({ name: fc.string({ unit: 'binary' }), labels: fc.dictionary(fc.string(), fc.string({ unit: 'grapheme' })) }),
    }),
  );
  const list = fc.record(
    {
      kind: fc.string(),
      metadata: fc.record({ resourceVersion: fc.string(), continue: fc.string({ unit: 'binary' }) }, { requiredKeys: [] }),
      items: fc.oneof(fc.array(item, { maxLength: 6 }), fc.constant(null)),
    },
    { requiredKeys: [] },
  );
  /** A body as JSON.stringify writes it (optionally indented) and random cut points in its bytes. */
  const body = fc
    .tuple(list, fc.constantFrom(undefined, 1, '\t'))
    .map(([l, indent]) => Buffer.from(JSON.stringify(l, null, indent)))
    .chain((buf) => fc.tuple(fc.constant(buf), fc.uniqueArray(fc.nat({ max: buf.length }), { maxLength: 12 })));
  const cut = (buf: Buffer, cuts: number[]): Buffer[] => {
    const sorted = [...cuts].sort((a, b) => a - b);
    return [...sorted, buf.length].map((end, i) => buf.subarray(i === 0 ? 0 : sorted[i - 1], end));
  };

  it('gives what JSON.parse gives for any list, cut anywhere (property)', () => {
    fc.assert(
      fc.property(body, ([buf, cuts]) => {
        assert.deepEqual(decode(cut(buf, cuts)), expected(buf.toString('utf8')));
      }),
      { numRuns: 400 },
    );
  });

  it('refuses every body cut short before its closing brace (property)', () => {
    fc.assert(
      fc.property(body, fc.nat(), ([buf], at) => {
        const end = buf.lastIndexOf('}');
        const prefix = buf.subarray(0, at % end);
        assert.throws(() => decode([prefix]), ListDecodeError);
      }),
      { numRuns: 400 },
    );
  });

  it('never accepts a body JSON.parse refuses, nor returns anything JSON.parse would not (property)', () => {
    // One byte of a valid body replaced by a structural or quoting byte.
    const mutated = body.chain(([buf, cuts]) =>
      fc.tuple(fc.constant(buf), fc.constant(cuts), fc.nat({ max: buf.length - 1 }), fc.constantFrom(...'{}[]",:\\ n1'.split(''))),
    );
    fc.assert(
      fc.property(mutated, ([orig, cuts, at, ch]) => {
        const buf = Buffer.from(orig);
        buf[at] = ch.charCodeAt(0);
        let want: unknown;
        try {
          want = expected(buf.toString('utf8'));
        } catch {
          assert.throws(() => decode(cut(buf, cuts)), ListDecodeError);
          return;
        }
        let got: unknown;
        try {
          got = decode(cut(buf, cuts));
        } catch (e) {
          // Refusing is right only where the body is JSON but not a list: items not an array of objects.
          assert.ok(e instanceof ListDecodeError);
          const items = (want as { items?: unknown }).items;
          const listLike = typeof want === 'object' && want !== null && !Array.isArray(want);
          assert.ok(
            !listLike ||
              (items !== undefined &&
                !(Array.isArray(items) && items.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x)))),
            `refused a list JSON.parse reads: ${buf.toString('utf8')}`,
          );
          return;
        }
        assert.deepEqual(got, want);
      }),
      { numRuns: 1000 },
    );
  });
});
