/**
 * How the message tables describe a protobuf message: field number → `'<jsonName> <type>'`, a
 * compact notation read once into `FieldSpec`s. Types are the scalars (`string`, `bytes`, `bool`,
 * `int32`, `int64`), the special apimachinery types (`Time`, `MicroTime`, `Quantity`,
 * `IntOrString`, `FieldsV1`), a message name, or `map<string,V>`; `[]` in front marks a repeated field; `*` after
 * the type keeps a zero value in the JSON (a Go pointer, or a field whose JSON tag has no
 * `omitempty`), since the Go encoder writes every non-pointer field, zero or not, and only the JSON
 * tags tell which zeros the JSON form would leave out. The name `...` embeds the message's fields
 * in its parent (Go's `json:",inline"`). Invariant: a table that names a type no table defines, or
 * is not in this notation, fails when it is first compiled, not on a request.
 */

export type ScalarType = 'string' | 'bytes' | 'bool' | 'int32' | 'int64';
export type SpecialType = 'Time' | 'MicroTime' | 'Quantity' | 'IntOrString' | 'FieldsV1';
export type MapValueType = 'string' | 'bytes' | 'Quantity';

export type FieldType =
  | { kind: 'scalar'; scalar: ScalarType }
  | { kind: 'special'; special: SpecialType }
  | { kind: 'message'; message: string }
  | { kind: 'map'; value: MapValueType };

export interface FieldSpec {
  /** The JSON field name; undefined for an inline (embedded) message. */
  name: string | undefined;
  type: FieldType;
  repeated: boolean;
  /** Emit the zero value too (pointer fields and fields without `omitempty`). */
  keepZero: boolean;
}

/** Field number → `'<jsonName> <type>'` for each message, keyed by message name. */
export type MessageTable = Readonly<Record<string, Readonly<Record<number, string>>>>;

export interface CompiledMessage {
  name: string;
  fields: ReadonlyMap<number, FieldSpec>;
}

const SCALARS: readonly string[] = ['string', 'bytes', 'bool', 'int32', 'int64'];
const SPECIALS: readonly string[] = ['Time', 'MicroTime', 'Quantity', 'IntOrString', 'FieldsV1'];
const MAP_VALUES: readonly string[] = ['string', 'bytes', 'Quantity'];
const NOTATION = /^(\S+) (\[\])?(map<string,(\w+)>|\w+)(\*)?$/;

function parseField(message: string, field: number, text: string, table: MessageTable): FieldSpec {
  const m = NOTATION.exec(text);
  if (m === null) throw new Error(`protobuf table: ${message} field ${field}: cannot read '${text}'`);
  const [, name = '', repeated, typeText = '', mapValue, keep] = m;
  let type: FieldType;
  if (mapValue !== undefined) {
    if (!MAP_VALUES.includes(mapValue)) throw new Error(`protobuf table: ${message} field ${field}: unsupported map value ${mapValue}`);
    type = { kind: 'map', value: mapValue as MapValueType };
  } else if (SCALARS.includes(typeText)) {
    type = { kind: 'scalar', scalar: typeText as ScalarType };
  } else if (SPECIALS.includes(typeText)) {
    type = { kind: 'special', special: typeText as SpecialType };
  } else if (Object.hasOwn(table, typeText)) {
    type = { kind: 'message', message: typeText };
  } else {
    throw new Error(`protobuf table: ${message} field ${field}: no message ${typeText}`);
  }
  const inline = name === '...';
  if (inline && (type.kind !== 'message' || repeated !== undefined))
    throw new Error(`protobuf table: ${message} field ${field}: only a single message can be inline`);
  return { name: inline ? undefined : name, type, repeated: repeated !== undefined, keepZero: keep !== undefined };
}

/**
 * Reads every message of `tables` into field maps, checking that each referenced type exists and
 * that no two tables define the same message name (messages reference each other by name alone).
 */
export function compileMessages(tables: readonly MessageTable[]): ReadonlyMap<string, CompiledMessage> {
  const table: Record<string, MessageTable[string]> = {};
  for (const t of tables) {
    for (const [name, fields] of Object.entries(t)) {
      if (Object.hasOwn(table, name)) throw new Error(`protobuf table: message ${name} is defined twice`);
      table[name] = fields;
    }
  }
  const out = new Map<string, CompiledMessage>();
  for (const [name, fields] of Object.entries(table)) {
    const compiled = new Map<number, FieldSpec>();
    for (const [num, text] of Object.entries(fields)) compiled.set(Number(num), parseField(name, Number(num), text, table));
    out.set(name, { name, fields: compiled });
  }
  return out;
}
