/**
 * The slice of the protocol-buffers wire format the OpenAPI v2 document needs: strings, bools and
 * nested messages (length-delimited), written field by field. A message is built as a list of
 * encoded fields and concatenated once.
 */

export type Field = Uint8Array;

const encoder = new TextEncoder();

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

const key = (field: number, wireType: 0 | 2): number[] => varint(field * 8 + wireType);

function lengthDelimited(field: number, bytes: Uint8Array): Field {
  const head = [...key(field, 2), ...varint(bytes.length)];
  const out = new Uint8Array(head.length + bytes.length);
  out.set(head, 0);
  out.set(bytes, head.length);
  return out;
}

export function message(fields: readonly Field[]): Uint8Array {
  const total = fields.reduce((n, f) => n + f.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const f of fields) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}

export const stringField = (field: number, value: string): Field => lengthDelimited(field, encoder.encode(value));
export const messageField = (field: number, fields: readonly Field[]): Field => lengthDelimited(field, message(fields));
export const boolField = (field: number, value: boolean): Field => new Uint8Array([...key(field, 0), value ? 1 : 0]);
