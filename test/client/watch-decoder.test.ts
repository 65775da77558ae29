// Imports the client's private WatchDecoder: unit tests of chunk splitting.
// WatchDecoder: newline-delimited watch events split anywhere across chunks, multi-byte text, and
// malformed input.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WatchDecodeError, type WatchEvent } from 'kube-converge/client';
import { WatchDecoder } from '../../src/client/watch-decoder.js';

const ev = (i: number, extra = '') => ({
  type: 'ADDED',
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, resourceVersion: String(i) }, data: { k: `v${i}${extra}` } },
});

function decodeChunks(chunks: Buffer[]): WatchEvent[] {
  const d = new WatchDecoder();
  const out: WatchEvent[] = [];
  for (const c of chunks) d.write(c, (e) => out.push(e));
  d.end();
  return out;
}

/** Splits `buf` at the given offsets. */
function splitAt(buf: Buffer, cuts: number[]): Buffer[] {
  const parts: Buffer[] = [];
  let prev = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    parts.push(buf.subarray(prev, c));
    prev = c;
  }
  parts.push(buf.subarray(prev));
  return parts;
}

describe('watch decoder', () => {
  const events = Array.from({ length: 20 }, (_, i) => ev(i, 'ünïcødé ✓ 𝄞'.repeat(i % 3)));
  const stream = Buffer.from(events.map((e) => JSON.stringify(e) + '\n').join(''));

  it('decodes every event whatever the chunk boundaries, including one byte at a time', () => {
    assert.deepEqual(decodeChunks([stream]), events);
    assert.deepEqual(
      decodeChunks(
        splitAt(
          stream,
          Array.from({ length: stream.length - 1 }, (_, i) => i + 1),
        ),
      ),
      events,
    );
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 50; round++) {
      const cuts = Array.from({ length: 1 + Math.floor(rnd() * 30) }, () => Math.floor(rnd() * stream.length));
      assert.deepEqual(decodeChunks(splitAt(stream, cuts)), events, `cuts ${cuts.join(',')}`);
    }
  });

  it('reassembles a multi-byte UTF-8 character split across chunks', () => {
    const line = Buffer.from(JSON.stringify(ev(1, '𝄞é')) + '\n');
    const at = line.indexOf(Buffer.from('𝄞')) + 2;
    assert.deepEqual(decodeChunks([line.subarray(0, at), line.subarray(at)]), [ev(1, '𝄞é')]);
    const atE = line.indexOf(Buffer.from('é')) + 1;
    assert.deepEqual(decodeChunks([line.subarray(0, atE), line.subarray(atE, atE), line.subarray(atE)]), [ev(1, '𝄞é')]);
  });

  it('decodes lines longer than any chunk, of growing and shrinking size, split into small chunks', () => {
    const sized = [100_000, 20, 300_000, 5_000, 70_000, 10].map((n, i) => ev(i, 'x'.repeat(n) + (i % 2 ? 'é' : '')));
    const text = Buffer.from(sized.map((e) => JSON.stringify(e) + '\n').join(''));
    const chunks = Array.from({ length: Math.ceil(text.length / 4_093) }, (_, i) => text.subarray(i * 4_093, (i + 1) * 4_093));
    assert.deepEqual(decodeChunks(chunks), sized);
  });

  it('skips blank lines and tolerates CRLF line ends', () => {
    const text = `\n${JSON.stringify(ev(1))}\r\n\n${JSON.stringify(ev(2))}\n  \n`;
    assert.deepEqual(decodeChunks([Buffer.from(text)]), [ev(1), ev(2)]);
  });

  it('delivers the events before a malformed line, then throws a WatchDecodeError naming its prefix', () => {
    const d = new WatchDecoder();
    const out: WatchEvent[] = [];
    const text = `${JSON.stringify(ev(1))}\n{"type":"ADDED","object":{"metadata":\n${JSON.stringify(ev(2))}\n`;
    assert.throws(
      () => d.write(Buffer.from(text), (e) => out.push(e)),
      (err: unknown) => {
        assert.ok(err instanceof WatchDecodeError);
        assert.equal(err.code, 'CONVERGE_WATCH_DECODE');
        assert.equal(err.linePrefix, '{"type":"ADDED","object":{"metadata":');
        return true;
      },
    );
    assert.deepEqual(out, [ev(1)]);
  });

  it('rejects lines that are JSON but not watch events', () => {
    for (const bad of ['[1,2]', '{"type":"ADDED"}', '{"type":"UPSERTED","object":{}}', '"x"', 'null']) {
      assert.throws(() => decodeChunks([Buffer.from(bad + '\n')]), WatchDecodeError, bad);
    }
  });

  it('reports a stream that ends inside an event', () => {
    assert.throws(() => decodeChunks([Buffer.from(JSON.stringify(ev(1)) + '\n{"type":"ADD')]), /stream ended inside an event/);
  });

  it('keeps ERROR events with their Status object', () => {
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 410,
      reason: 'Expired',
      message: 'too old resource version: 1 (5)',
    };
    assert.deepEqual(decodeChunks([Buffer.from(JSON.stringify({ type: 'ERROR', object: status }) + '\n')]), [
      { type: 'ERROR', object: status },
    ]);
  });
});
