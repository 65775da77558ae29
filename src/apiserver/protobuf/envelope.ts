/**
 * The Kubernetes protobuf envelope: the four bytes `k8s\0`, then a `runtime.Unknown` message whose
 * `typeMeta` (apiVersion, kind) names the object and whose `raw` holds the object's own message
 * (field numbers from apimachinery's `pkg/runtime/generated.proto`). Invariant: anything but that
 * layout is a 400 `ProtobufDecodeError`; a compressed or re-encoded `raw` is reported, not guessed at.
 */
import { malformed } from './protobuf-decode-error.js';
import { WireReader, WireType } from './wire-reader.js';

export const PROTOBUF_MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  /** `contentEncoding` of the Unknown; empty for every body a client sends today. */
  contentEncoding: string;
  /** How `raw` is encoded; empty means protobuf. */
  contentType: string;
}

const utf8 = new TextDecoder();

function lengthDelimited(reader: WireReader, wireType: number, what: string): Uint8Array {
  if (wireType !== WireType.lengthDelimited) throw malformed(`the envelope's ${what} has wire type ${wireType}`);
  return reader.lengthDelimited();
}

export function readEnvelope(body: Uint8Array): Envelope {
  if (body.length < PROTOBUF_MAGIC.length || PROTOBUF_MAGIC.some((b, i) => body[i] !== b)) {
    throw malformed('the body does not start with the Kubernetes protobuf prefix "k8s\\x00"');
  }
  const out: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(), contentEncoding: '', contentType: '' };
  const reader = new WireReader(body.subarray(PROTOBUF_MAGIC.length));
  while (!reader.done) {
    const { field, wireType } = reader.key();
    if (field === 1) {
      const typeMeta = new WireReader(lengthDelimited(reader, wireType, 'typeMeta'));
      while (!typeMeta.done) {
        const k = typeMeta.key();
        const text = utf8.decode(lengthDelimited(typeMeta, k.wireType, 'typeMeta'));
        if (k.field === 1) out.apiVersion = text;
        else if (k.field === 2) out.kind = text;
        else throw malformed(`the envelope's typeMeta has an unknown field ${k.field}`);
      }
    } else if (field === 2) out.raw = lengthDelimited(reader, wireType, 'raw');
    else if (field === 3) out.contentEncoding = utf8.decode(lengthDelimited(reader, wireType, 'contentEncoding'));
    else if (field === 4) out.contentType = utf8.decode(lengthDelimited(reader, wireType, 'contentType'));
    else throw malformed(`the envelope has an unknown field ${field}`);
  }
  return out;
}
