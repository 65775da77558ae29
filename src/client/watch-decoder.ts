/**
 * The watch-protocol decoder: newline-delimited JSON events (`{"type":…,"object":…}\n`) arriving in
 * arbitrary chunks. This is the hot path for every event a controller sees, so it stays lean: each
 * chunk's complete lines are decoded to one string in one pass when they are ASCII (checked with the
 * SIMD `isAscii`; a `\n` byte never occurs inside a multi-byte character, so cutting at the last newline
 * is always a character boundary), lines are found with `indexOf`, and only the unfinished tail is kept
 * as Buffers until its newline comes.
 * Invariant: every complete line either becomes exactly one event or raises a `WatchDecodeError`;
 * blank lines are the only thing skipped.
 */
import { isAscii } from 'node:buffer';
import type { KubeObject } from '../meta/index.js';
import { WatchDecodeError } from './errors.js';
import type { WatchEvent } from './types.js';

const NEWLINE = 10;
const PREFIX_CHARS = 120;

/** Turns the watch protocol's newline-delimited JSON, arriving in arbitrary chunks, into events. */
export class WatchDecoder<T extends KubeObject = KubeObject> {
  /** Pieces of the line still waiting for its newline. */
  #tail: Buffer[] = [];

  /** Decodes every complete line in `chunk`, in order; throws `WatchDecodeError` at the first malformed one. */
  write(chunk: Buffer, emit: (event: WatchEvent<T>) => void): void {
    let start = 0;
    if (this.#tail.length > 0) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl === -1) {
        this.#tail.push(chunk);
        return;
      }
      this.#tail.push(chunk.subarray(0, nl));
      const line = Buffer.concat(this.#tail).toString('utf8');
      this.#tail = [];
      this.#line(line, emit);
      start = nl + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= start) {
      if (isAscii(chunk.subarray(start, last))) this.#lines(chunk.toString('latin1', start, last), emit);
      else this.#mixed(chunk, start, last, emit);
      start = last + 1;
    }
    if (start < chunk.length) this.#tail.push(start === 0 ? chunk : chunk.subarray(start));
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
    if (this.#tail.length === 0) return;
    const rest = Buffer.concat(this.#tail).toString('utf8');
    this.#tail = [];
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
