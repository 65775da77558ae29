/**
 * A reader for the protobuf wire format over one byte range: keys, varints and length-delimited
 * fields, which are all the Kubernetes kinds decoded here use (no fixed-size, zigzag or group
 * fields appear in them; a key announcing another wire type is refused by the message decoder).
 * Invariant: the reader never reads past its end; running out of bytes, a varint longer than ten
 * bytes or a length beyond the end is a 400 `ProtobufDecodeError`, never an out-of-bounds read.
 */
import { malformed } from './protobuf-decode-error.js';

/** The wire types the decoded kinds use. */
export const WireType = { varint: 0, lengthDelimited: 2 } as const;

/** A varint as a number up to seven bytes long (49 bits, always exact), else as a bigint. */
export type Varint = number | bigint;

export class WireReader {
  readonly #bytes: Uint8Array;
  #pos: number;
  readonly #end: number;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
    this.#pos = 0;
    this.#end = bytes.length;
  }

  get done(): boolean {
    return this.#pos >= this.#end;
  }

  varint(): Varint {
    // Seven payload bits per byte; up to seven bytes (49 bits) stay exact as a plain number.
    let n = 0;
    let scale = 1;
    for (let i = 0; i < 7; i++) {
      const b = this.#byte();
      n += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return n;
      scale *= 128;
    }
    let big = BigInt(n);
    let shift = 49n;
    for (let i = 7; i < 10; i++) {
      const b = this.#byte();
      big |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asUintN(64, big);
      shift += 7n;
    }
    throw malformed('a varint is longer than ten bytes');
  }

  /** A field key: the field number and the wire type of its value. */
  key(): { field: number; wireType: number } {
    const k = this.varint();
    if (typeof k === 'bigint' || k > 0xffffffff) throw malformed('a field key is out of range');
    const field = Math.floor(k / 8);
    if (field === 0) throw malformed('field number 0 is not allowed');
    return { field, wireType: k % 8 };
  }

  lengthDelimited(): Uint8Array {
    const len = this.varint();
    if (typeof len === 'bigint' || len > this.#end - this.#pos)
      throw malformed('a length-delimited field runs past the end of its message');
    const out = this.#bytes.subarray(this.#pos, this.#pos + len);
    this.#pos += len;
    return out;
  }

  #byte(): number {
    if (this.#pos >= this.#end) throw malformed('the message ends inside a varint');
    return this.#bytes[this.#pos++]!;
  }
}

/** A varint read for an `int32` field: the low 32 bits, signed (negative values are sign-extended on the wire). */
export function toInt32(v: Varint): number {
  if (typeof v === 'number' && v <= 0x7fffffff) return v;
  return Number(BigInt.asIntN(32, BigInt(v)));
}

/** A varint read for an `int64` field, as a JS number (exact up to 2^53). */
export function toInt64(v: Varint): number {
  return typeof v === 'number' ? v : Number(BigInt.asIntN(64, v));
}
