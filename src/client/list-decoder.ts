/**
 * The list decoder: a LIST response (`{"kind":…,"metadata":{…},"items":[{…},{…},…]}`) decoded as it
 * arrives, item by item. A byte scanner follows strings, escapes and nesting to find where each element
 * of the top-level `items` array ends; each element is parsed on its own as soon as its last byte is in,
 * and the envelope (everything but the elements: kind, apiVersion, metadata with resourceVersion and
 * continue) is parsed at the end. The body is never held as one string: only the element being received
 * is kept, as the byte ranges of the chunks it spans. Elements are decoded from bytes when complete, so
 * a multi-byte UTF-8 character split between chunks is whole by then; an all-ASCII element becomes a
 * one-byte string (`latin1`), which `JSON.parse` reads fastest.
 * Invariant: `end()` returns the whole list or throws a `ListDecodeError`; a body that is not one JSON
 * object, whose `items` is neither an array of objects nor null, or that stops early, never yields a
 * partial list. A body without `items` (a `Status`) is returned as parsed.
 */
import { isAscii } from 'node:buffer';
import { ListDecodeError } from './errors.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
/** Long enough for `items` spelled with escapes (`\u0069…`, 30 bytes); a longer key is not `items`. */
const MAX_KEY_BYTES = 64;
const PREFIX_CHARS = 120;

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Whether a top-level key's bytes (with the closing quote) decode to `items`; escapes are JSON's to resolve. */
function isItemsKey(bytes: number[]): boolean {
  try {
    return JSON.parse('"' + Buffer.from(bytes).toString('utf8')) === 'items';
  } catch {
    return false;
  }
}

/** Where the scanner is: in the envelope, or in the `items` array (between elements, or inside one). */
const enum Mode {
  Envelope,
  /** After `[` or `,` of the items array: an element (or `]` right after `[`) must come. */
  BeforeItem,
  /** After an element: `,` or `]` must come. */
  AfterItem,
  Item,
}

/** Decodes a list body fed in arbitrary chunks; `end()` returns the list with every item parsed. */
export class ListDecoder<L extends object = { items?: unknown[] }> {
  #mode = Mode.Envelope;
  /** Nesting depth in the envelope (1 inside the top-level object) or inside the current element (1 inside its braces). */
  #depth = 0;
  #inString = false;
  /** The previous byte was a backslash inside a string (it may have ended the last chunk). */
  #escaped = false;
  /** Bytes of the envelope, with the items array's elements left out. */
  #envelope: Buffer[] = [];
  /** Bytes of the current element from earlier chunks. */
  #pending: Buffer[] = [];
  /** The bytes of the last string at the envelope's top level and its closing quote, while it can still be `items` (null once it cannot). */
  #key: number[] | null = null;
  /** The last top-level string was `items`, followed by `:`: the next value is the items array. */
  #itemsNext = false;
  #sawItems = false;
  #itemsNull = false;
  #items: unknown[] = [];
  #first = true;
  #done = false;

  /** Scans one chunk; complete elements are parsed at once. Throws `ListDecodeError` at the first malformed byte. */
  write(chunk: Buffer): void {
    const n = chunk.length;
    if (this.#done) throw new ListDecodeError('body', 'write() after end()');
    let i = 0;
    let mark = 0;
    while (i < n) {
      if (this.#mode === Mode.Item) {
        i = this.#scanItem(chunk, i, mark);
        if (this.#mode !== Mode.Item) mark = i;
        continue;
      }
      const b = chunk[i]!;
      if (this.#mode === Mode.Envelope) {
        i = this.#envelopeByte(chunk, i, b, mark);
        if (this.#mode !== Mode.Envelope) mark = i;
        continue;
      }
      i++;
      if (isSpace(b)) continue;
      if (this.#mode === Mode.BeforeItem && b === OPEN_OBJECT) {
        this.#mode = Mode.Item;
        this.#depth = 1;
        mark = i - 1;
      } else if (b === CLOSE_ARRAY && (this.#mode === Mode.AfterItem || this.#items.length === 0)) {
        this.#mode = Mode.Envelope;
        this.#depth = 1;
        this.#envelope.push(Buffer.from('[]'));
        mark = i;
      } else if (b === COMMA && this.#mode === Mode.AfterItem) {
        this.#mode = Mode.BeforeItem;
      } else {
        const what =
          this.#mode === Mode.BeforeItem ? 'an item that is not an object' : `${JSON.stringify(String.fromCharCode(b))} between items`;
        throw new ListDecodeError(`items[${this.#items.length}]`, what);
      }
    }
    // What is left of the chunk belongs to the envelope or to an element that goes on in the next chunk.
    if (mark < n && (this.#mode === Mode.Envelope || this.#mode === Mode.Item)) {
      (this.#mode === Mode.Envelope ? this.#envelope : this.#pending).push(mark === 0 ? chunk : chunk.subarray(mark));
    }
  }

  /** The body ended: returns the list (the envelope with its items), or throws if it is incomplete or not a list. */
  end(): L {
    if (this.#done) throw new ListDecodeError('body', 'end() called twice');
    this.#done = true;
    if (this.#first) throw new ListDecodeError('body', 'empty');
    if (this.#mode !== Mode.Envelope || this.#depth !== 0) {
      throw new ListDecodeError(this.#sawItems ? `items[${this.#items.length}]` : 'body', 'the body ended inside the list');
    }
    const text = Buffer.concat(this.#envelope).toString('utf8');
    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch (cause) {
      throw new ListDecodeError('body', `not JSON: ${JSON.stringify(text.slice(0, PREFIX_CHARS))}`, { cause });
    }
    if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope))
      throw new ListDecodeError('body', 'not a JSON object');
    if (this.#sawItems) (envelope as { items: unknown[] }).items = this.#itemsNull ? [] : this.#items;
    return envelope as L;
  }

  /**
   * One byte of the envelope at `i`; returns where to go on. Tracks strings and depth, and at the top
   * level the key `items`, whose array switches to item mode (the envelope keeps `"items":[]`).
   */
  #envelopeByte(chunk: Buffer, i: number, b: number, mark: number): number {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (b === BACKSLASH) this.#escaped = true;
      else if (b === QUOTE) this.#inString = false;
      if (this.#key !== null) this.#key = this.#key.length < MAX_KEY_BYTES ? (this.#key.push(b), this.#key) : null;
      return i + 1;
    }
    if (isSpace(b)) return i + 1;
    if (this.#first) {
      if (b !== OPEN_OBJECT) throw new ListDecodeError('body', `not a JSON object: starts with ${JSON.stringify(String.fromCharCode(b))}`);
      this.#first = false;
    } else if (this.#depth === 0) {
      throw new ListDecodeError('body', `${JSON.stringify(String.fromCharCode(b))} after the end of the list`);
    }
    if (this.#depth === 1 && this.#itemsNext) {
      this.#itemsNext = false;
      if (b === OPEN_ARRAY) {
        if (this.#sawItems) throw new ListDecodeError('items', 'appears twice');
        this.#sawItems = true;
        this.#envelope.push(chunk.subarray(mark, i));
        this.#mode = Mode.BeforeItem;
        return i + 1;
      }
      if (b === 0x6e /* n of null */) {
        if (this.#sawItems) throw new ListDecodeError('items', 'appears twice');
        this.#sawItems = true;
        this.#itemsNull = true;
      } else throw new ListDecodeError('items', `not an array: starts with ${JSON.stringify(String.fromCharCode(b))}`);
    }
    if (b === QUOTE) {
      this.#inString = true;
      this.#key = this.#depth === 1 ? [] : null;
    } else if (b === COLON) {
      this.#itemsNext = this.#depth === 1 && this.#key !== null && isItemsKey(this.#key);
      this.#key = null;
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      this.#depth++;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      this.#depth--;
    }
    return i + 1;
  }

  /**
   * Scans the current element from `i` to its closing brace; parses it when found (from `mark` in this
   * chunk plus the pending pieces) and returns the index after it. Returns `chunk.length` if the
   * element goes on in the next chunk. This loop sees nearly every byte of the body.
   */
  #scanItem(chunk: Buffer, i: number, mark: number): number {
    const n = chunk.length;
    let depth = this.#depth;
    if (this.#inString) {
      i = skipString(chunk, i, this.#escaped);
      this.#escaped = i > n;
      if (i >= n) {
        this.#depth = depth;
        return n;
      }
      this.#inString = false;
      i++;
    }
    while (i < n) {
      const b = chunk[i]!;
      i++;
      if (b === QUOTE) {
        i = skipString(chunk, i, false);
        if (i >= n) {
          this.#inString = true;
          this.#escaped = i > n;
          this.#depth = depth;
          return n;
        }
        i++;
      } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        depth++;
      } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        if (--depth === 0) {
          this.#item(chunk, mark, i);
          this.#mode = Mode.AfterItem;
          this.#depth = 1;
          return i;
        }
      }
    }
    this.#depth = depth;
    return n;
  }

  /** Parses the complete element: the pending pieces plus `chunk[mark, end)`. */
  #item(chunk: Buffer, mark: number, end: number): void {
    let text: string;
    if (this.#pending.length === 0) {
      text = isAscii(chunk.subarray(mark, end)) ? chunk.toString('latin1', mark, end) : chunk.toString('utf8', mark, end);
    } else {
      this.#pending.push(chunk.subarray(mark, end));
      const bytes = Buffer.concat(this.#pending);
      this.#pending = [];
      text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
    }
    try {
      this.#items.push(JSON.parse(text));
    } catch (cause) {
      throw new ListDecodeError(`items[${this.#items.length}]`, `not JSON: ${JSON.stringify(text.slice(0, PREFIX_CHARS))}`, { cause });
    }
  }
}

/**
 * The index of the closing quote of a string whose content starts at `i` (`escaped`: the byte at `i`
 * is escaped). Returns `n` if the string goes on past the chunk, `n + 1` if the chunk ends right after
 * a backslash (the next chunk's first byte is escaped).
 */
function skipString(chunk: Buffer, i: number, escaped: boolean): number {
  const n = chunk.length;
  if (escaped) i++;
  while (i < n) {
    const b = chunk[i]!;
    if (b === QUOTE) return i;
    if (b === BACKSLASH) {
      if (i + 1 === n) return n + 1;
      i += 2;
    } else i++;
  }
  return n;
}
