/**
 * The watch-protocol decoder: newline-delimited JSON events (`{"type":…,"object":…}\n`) arriving in
 * arbitrary chunks. This is the hot path for every event a controller sees, so it stays lean: each
 * chunk's complete lines are decoded to one string in one pass when they are ASCII (checked with the
 * SIMD `isAscii`; a `\n` byte never occurs inside a multi-byte character, so cutting at the last newline
 * is always a character boundary), lines are found with `indexOf`, and only the unfinished tail is kept,
 * copied into one buffer reused from line to line, until its newline comes. Over TLS every chunk is one
 * record of at most 16 KiB, so most events of 10 KiB span two chunks: joining them in a buffer already
 * there, and reading the joined line as Latin-1 when it is ASCII, spares an allocation and a UTF-8
 * decode per event.
 * Invariant: every complete line either becomes exactly one event or raises a `WatchDecodeError`;
 * blank lines are the only thing skipped.
 */
import { isAscii } from 'node:buffer';
import type { KubeObject } from '../meta/index.js';
import { WatchDecodeError } from './errors.js';
import type { WatchEvent } from './types.js';

const NEWLINE = 10;
const PREFIX_CHARS = 120;
/** The tail buffer's first size: one TLS record. */
const TAIL_INITIAL_BYTES = 16 * 1024;
/** A tail buffer grown past this for a long line is dropped once the line is done, not kept for the next. */
const TAIL_KEPT_BYTES = 64 * 1024;

/** Turns the watch protocol's newline-delimited JSON, arriving in arbitrary chunks, into events. */
export class WatchDecoder<T extends KubeObject = KubeObject> {
  /** The line still waiting for its newline is `#tail[0, #tailLength)`. */
  #tail: Buffer | undefined;
  #tailLength = 0;

  /** Decodes every complete line in `chunk`, in order; throws `WatchDecodeError` at the first malformed one. */
  write(chunk: Buffer, emit: (event: WatchEvent<T>) => void): void {
    let start = 0;
    if (this.#tailLength > 0) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl === -1) {
        this.#keep(chunk);
        return;
      }
      this.#keep(chunk.subarray(0, nl));
      const line = this.#takeTail();
      this.#line(isAscii(line) ? line.toString('latin1') : line.toString('utf8'), emit);
      start = nl + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= start) {
      if (isAscii(chunk.subarray(start, last))) this.#lines(chunk.toString('latin1', start, last), emit);
      else this.#mixed(chunk, start, last, emit);
      start = last + 1;
    }
    if (start < chunk.length) this.#keep(chunk.subarray(start));
  }

  /** Appends `bytes` to the unfinished line, growing the tail buffer by doubling. */
  #keep(bytes: Buffer): void {
    const need = this.#tailLength + bytes.length;
    if (this.#tail === undefined || need > this.#tail.length) {
      let size = this.#tail?.length ?? TAIL_INITIAL_BYTES;
      while (size < need) size *= 2;
      const grown = Buffer.allocUnsafe(size);
      this.#tail?.copy(grown, 0, 0, this.#tailLength);
      this.#tail = grown;
    }
    bytes.copy(this.#tail, this.#tailLength);
    this.#tailLength = need;
  }

  /** The finished line's bytes, valid until the next `#keep`; the tail is empty after. */
  #takeTail(): Buffer {
    const tail = this.#tail!;
    const line = tail.subarray(0, this.#tailLength);
    this.#tailLength = 0;
    if (tail.length > TAIL_KEPT_BYTES) this.#tail = undefined;
    return line;
  }

  /** Complete lines in `text` (no trailing newline), one event each. */
  #lines(text: string, emit: (event: WatchEvent<T>) => void): void {
    let i = 0;
    for (let j = text.indexOf('\n'); j !== -1; j = text.indexOf('\n', i)) {
      this.#line(text.slice(i, j), emit);
      i = j + 1;
    }
    this.#line(text.slice(i), emit);
  }

  /**
   * Lines `[start, last)` of a chunk with non-ASCII bytes. One non-Latin-1 character would make a
   * whole-chunk string two-byte, and JSON.parse is slower on every line sliced from it; so runs of
   * ASCII lines are still decoded together and only the lines holding other bytes one by one.
   */
  #mixed(chunk: Buffer, start: number, last: number, emit: (event: WatchEvent<T>) => void): void {
    let run = start;
    for (let s = start; s <= last;) {
      const nl = chunk.indexOf(NEWLINE, s);
      if (!isAscii(chunk.subarray(s, nl))) {
        if (run < s) this.#lines(chunk.toString('latin1', run, s - 1), emit);
        this.#line(chunk.toString('utf8', s, nl), emit);
        run = nl + 1;
      }
      s = nl + 1;
    }
    if (run <= last) this.#lines(chunk.toString('latin1', run, last), emit);
  }

  /** The stream ended: anything left must be whitespace, else the last event was cut off. */
  end(): void {
    if (this.#tailLength === 0) return;
    const rest = this.#takeTail().toString('utf8');
    if (rest.trim() !== '') throw new WatchDecodeError(rest.slice(0, PREFIX_CHARS), 'stream ended inside an event');
  }

  #line(text: string, emit: (event: WatchEvent<T>) => void): void {
    let ev: { type?: unknown; object?: unknown };
    try {
      ev = JSON.parse(text) as { type?: unknown; object?: unknown };
    } catch (cause) {
      if (text.trim() === '') return;
      throw new WatchDecodeError(text.slice(0, PREFIX_CHARS), 'not JSON', { cause });
    }
    if (typeof ev !== 'object' || ev === null || typeof ev.object !== 'object' || ev.object === null) {
      throw new WatchDecodeError(text.slice(0, PREFIX_CHARS), 'no object');
    }
    switch (ev.type) {
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED':
      case 'BOOKMARK':
      case 'ERROR':
        emit(ev as WatchEvent<T>);
        return;
      default:
        throw new WatchDecodeError(text.slice(0, PREFIX_CHARS), `unknown event type ${JSON.stringify(ev.type)}`);
    }
  }
}
