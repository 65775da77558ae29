/**
 * Decodes one protobuf message into the JSON object the Go type would marshal to, driven by the
 * compiled message tables. Go's protobuf encoder writes every non-pointer field, so zeros arrive on
 * the wire; they are left out unless the field keeps zeros (see `message-schema.ts`), which makes
 * the result the object the JSON form of the same request carries. Invariant: a field number the
 * table does not list is a 415 `ProtobufDecodeError` naming message and field, never dropped; a
 * wire type that does not fit the field is a 400 one.
 */
import { formatTimestamp } from '../../meta/index.js';
import { formatMicroTime } from '../../meta/internal.js';
import type { CompiledMessage, FieldSpec, MapValueType, SpecialType } from './message-schema.js';
import { malformed, ProtobufDecodeError } from './protobuf-decode-error.js';
import { toInt32, toInt64, WireReader, WireType } from './wire-reader.js';

/** A field this server does not decode: storing the object without it would lose data silently. */
function unmodelled(messageName: string, field: number, path: string): ProtobufDecodeError {
  return new ProtobufDecodeError(415, `field ${field} of ${messageName} (at ${path === '' ? 'the top level' : path})`);
}

export type JsonObject = Record<string, unknown>;

const utf8 = new TextDecoder();

export class MessageDecoder {
  readonly #messages: ReadonlyMap<string, CompiledMessage>;

  constructor(messages: ReadonlyMap<string, CompiledMessage>) {
    this.#messages = messages;
  }

  /** Whether `messageName` is one of the compiled messages. */
  has(messageName: string): boolean {
    return this.#messages.has(messageName);
  }

  /** `path` is the JSON path of this message in the object, for error messages. */
  decode(messageName: string, bytes: Uint8Array, path = ''): JsonObject {
    const message = this.#messages.get(messageName);
    if (message === undefined) throw new Error(`protobuf table: no message ${messageName}`);
    const out: JsonObject = {};
    const reader = new WireReader(bytes);
    while (!reader.done) {
      const { field, wireType } = reader.key();
      const spec = message.fields.get(field);
      if (spec === undefined) throw unmodelled(messageName, field, path);
      this.#readField(spec, wireType, reader, out, path);
    }
    for (const [, spec] of message.fields) {
      if (spec.name !== undefined && !spec.repeated && !spec.keepZero && isZero(out[spec.name])) delete out[spec.name];
    }
    return out;
  }

  #readField(spec: FieldSpec, wireType: number, reader: WireReader, out: JsonObject, parentPath: string): void {
    const name = spec.name;
    const path = name === undefined ? parentPath : parentPath === '' ? name : `${parentPath}.${name}`;
    const type = spec.type;
    if (type.kind === 'map') {
      const entry = this.#mapEntry(expectBytes(reader, wireType, path), type.value, path);
      const map = (out[name!] ??= {}) as JsonObject;
      map[entry.key] = entry.value;
      return;
    }
    if (
      type.kind === 'scalar' &&
      spec.repeated &&
      wireType === WireType.lengthDelimited &&
      (type.scalar === 'int32' || type.scalar === 'int64' || type.scalar === 'bool')
    ) {
      // A packed repeated number field: one length-delimited run of varints.
      const packed = new WireReader(reader.lengthDelimited());
      const list = (out[name!] ??= []) as unknown[];
      while (!packed.done) list.push(scalarFromVarint(type.scalar, packed.varint()));
      return;
    }
    let value: unknown;
    if (type.kind === 'scalar') {
      if (type.scalar === 'string' || type.scalar === 'bytes') {
        const bytes = expectBytes(reader, wireType, path);
        value = type.scalar === 'string' ? utf8.decode(bytes) : Buffer.from(bytes).toString('base64');
      } else {
        if (wireType !== WireType.varint) throw wrongWireType(path, wireType);
        value = scalarFromVarint(type.scalar, reader.varint());
      }
    } else if (type.kind === 'special') {
      value = this.#special(type.special, expectBytes(reader, wireType, path), path, spec.keepZero);
      if (value === undefined) return;
    } else {
      const inner = this.decode(type.message, expectBytes(reader, wireType, path), path);
      if (name === undefined) {
        Object.assign(out, inner);
        return;
      }
      value = inner;
    }
    if (spec.repeated) ((out[name!] ??= []) as unknown[]).push(value);
    else out[name!] = value;
  }

  #special(special: SpecialType, bytes: Uint8Array, path: string, keepZero: boolean): unknown {
    switch (special) {
      case 'Time':
      case 'MicroTime': {
        // The zero time is written as an empty message; its JSON form is null, which means unset.
        if (bytes.length === 0) return undefined;
        const f = this.#fields(special, bytes, path, { 1: 'varint', 2: 'varint' });
        const seconds = toInt64((f.get(1) as number | bigint | undefined) ?? 0);
        // Time: only seconds (the real decoder drops nanos too); MicroTime: microseconds.
        const micros = special === 'Time' ? undefined : Math.floor(toInt32((f.get(2) as number | bigint | undefined) ?? 0) / 1000);
        return rfc3339(seconds, micros, path);
      }
      case 'Quantity':
        return quantityString(this.#fields('Quantity', bytes, path, { 1: 'bytes' }));
      case 'IntOrString': {
        const f = this.#fields('IntOrString', bytes, path, { 1: 'varint', 2: 'varint', 3: 'bytes' });
        const isString = toInt64((f.get(1) as number | bigint | undefined) ?? 0) === 1;
        if (isString) return utf8.decode((f.get(3) as Uint8Array | undefined) ?? new Uint8Array());
        const n = toInt32((f.get(2) as number | bigint | undefined) ?? 0);
        return n === 0 && !keepZero ? undefined : n;
      }
      case 'FieldsV1': {
        const raw = this.#fields('FieldsV1', bytes, path, { 1: 'bytes' }).get(1) as Uint8Array | undefined;
        if (raw === undefined || raw.length === 0) return {};
        try {
          return JSON.parse(utf8.decode(raw)) as unknown;
        } catch {
          throw malformed(`${path} does not hold JSON`);
        }
      }
    }
  }

  /** Reads a small fixed-layout message (Time, Quantity, IntOrString, FieldsV1) by field number. */
  #fields(
    messageName: string,
    bytes: Uint8Array,
    path: string,
    layout: Record<number, 'varint' | 'bytes'>,
  ): Map<number, number | bigint | Uint8Array> {
    const out = new Map<number, number | bigint | Uint8Array>();
    const reader = new WireReader(bytes);
    while (!reader.done) {
      const { field, wireType } = reader.key();
      const want = layout[field];
      if (want === undefined) throw unmodelled(messageName, field, path);
      if (want === 'varint') {
        if (wireType !== WireType.varint) throw wrongWireType(path, wireType);
        out.set(field, reader.varint());
      } else {
        out.set(field, expectBytes(reader, wireType, path));
      }
    }
    return out;
  }

  #mapEntry(bytes: Uint8Array, valueType: MapValueType, path: string): { key: string; value: unknown } {
    const f = this.#fields('map entry', bytes, path, { 1: 'bytes', 2: 'bytes' });
    const key = utf8.decode((f.get(1) as Uint8Array | undefined) ?? new Uint8Array());
    const raw = (f.get(2) as Uint8Array | undefined) ?? new Uint8Array();
    if (valueType === 'string') return { key, value: utf8.decode(raw) };
    if (valueType === 'bytes') return { key, value: Buffer.from(raw).toString('base64') };
    return { key, value: quantityString(this.#fields('Quantity', raw, `${path}.${key}`, { 1: 'bytes' })) };
  }
}

function quantityString(fields: Map<number, number | bigint | Uint8Array>): string {
  const s = utf8.decode((fields.get(1) as Uint8Array | undefined) ?? new Uint8Array());
  return s === '' ? '0' : s;
}

function scalarFromVarint(scalar: 'int32' | 'int64' | 'bool', v: number | bigint): number | boolean {
  if (scalar === 'bool') return v !== 0 && v !== 0n;
  return scalar === 'int32' ? toInt32(v) : toInt64(v);
}

function expectBytes(reader: WireReader, wireType: number, path: string): Uint8Array {
  if (wireType !== WireType.lengthDelimited) throw wrongWireType(path, wireType);
  return reader.lengthDelimited();
}

function wrongWireType(path: string, wireType: number): ProtobufDecodeError {
  return malformed(`${path === '' ? 'a field' : path} has wire type ${wireType}, which does not fit its type`);
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

/** Years 0 to 9999 in epoch seconds: what RFC 3339 (and Go's JSON encoding of a time) can express. */
const MIN_SECONDS = -62_167_219_200;
const MAX_SECONDS = 253_402_300_799;

/**
 * Seconds since the epoch as RFC 3339 in UTC, as `metav1.Time` marshals to JSON, or with six
 * fraction digits when `micros` is given, as `metav1.MicroTime` does; out of range is malformed.
 */
function rfc3339(seconds: number, micros: number | undefined, path: string): string {
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) throw malformed(`${path} is a time outside the years 0 to 9999`);
  if (micros !== undefined && (micros < 0 || micros > 999_999)) throw malformed(`${path} has nanoseconds outside 0 to 999999999`);
  return micros === undefined ? formatTimestamp(seconds * 1000) : formatMicroTime(seconds * 1000, micros);
}
