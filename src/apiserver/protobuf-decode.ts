/**
 * Decoding of Kubernetes protobuf request bodies for the few kinds typed clients create with it:
 * kubectl's `create namespace|configmap|secret|serviceaccount` send `application/vnd.kubernetes.protobuf`
 * (the `k8s\0` magic, then a `runtime.Unknown` envelope holding the typed message). Field numbers
 * follow `k8s.io/api` `generated.proto`. Bodies of other kinds are refused with 415 so the client
 * sees a clear error; malformed bytes are a 400. Responses are always JSON.
 */
import type { KubeObject } from '../meta/index.js';
import { badRequest, unsupportedMediaType } from './status.js';

type FieldType = 'string' | 'bytes' | 'int' | 'bool' | 'time' | 'map' | 'bytesMap' | Schema;
interface FieldSpec {
  name: string;
  type: FieldType;
  repeated?: boolean;
}
type Schema = Record<number, FieldSpec>;

const TIME: Schema = { 1: { name: 'seconds', type: 'int' }, 2: { name: 'nanos', type: 'int' } };
const OWNER_REFERENCE: Schema = {
  1: { name: 'kind', type: 'string' }, 3: { name: 'name', type: 'string' }, 4: { name: 'uid', type: 'string' },
  5: { name: 'apiVersion', type: 'string' }, 6: { name: 'controller', type: 'bool' }, 7: { name: 'blockOwnerDeletion', type: 'bool' },
};
const OBJECT_META: Schema = {
  1: { name: 'name', type: 'string' }, 2: { name: 'generateName', type: 'string' }, 3: { name: 'namespace', type: 'string' },
  5: { name: 'uid', type: 'string' }, 6: { name: 'resourceVersion', type: 'string' }, 7: { name: 'generation', type: 'int' },
  8: { name: 'creationTimestamp', type: 'time' }, 9: { name: 'deletionTimestamp', type: 'time' },
  10: { name: 'deletionGracePeriodSeconds', type: 'int' }, 11: { name: 'labels', type: 'map' }, 12: { name: 'annotations', type: 'map' },
  13: { name: 'ownerReferences', type: OWNER_REFERENCE, repeated: true }, 14: { name: 'finalizers', type: 'string', repeated: true },
};
const OBJECT_REFERENCE: Schema = {
  1: { name: 'kind', type: 'string' }, 2: { name: 'namespace', type: 'string' }, 3: { name: 'name', type: 'string' },
  4: { name: 'uid', type: 'string' }, 5: { name: 'apiVersion', type: 'string' }, 6: { name: 'resourceVersion', type: 'string' },
  7: { name: 'fieldPath', type: 'string' },
};
const meta = { name: 'metadata', type: OBJECT_META } as const;

/** The kinds a protobuf body may carry, by `apiVersion/kind`. */
const KINDS: Record<string, Schema> = {
  'v1/Namespace': {
    1: meta, 2: { name: 'spec', type: { 1: { name: 'finalizers', type: 'string', repeated: true } } },
    3: { name: 'status', type: { 1: { name: 'phase', type: 'string' } } },
  },
  'v1/ConfigMap': { 1: meta, 2: { name: 'data', type: 'map' }, 3: { name: 'binaryData', type: 'bytesMap' }, 4: { name: 'immutable', type: 'bool' } },
  'v1/Secret': {
    1: meta, 2: { name: 'data', type: 'bytesMap' }, 3: { name: 'type', type: 'string' }, 4: { name: 'stringData', type: 'map' },
    5: { name: 'immutable', type: 'bool' },
  },
  'v1/ServiceAccount': {
    1: meta, 2: { name: 'secrets', type: OBJECT_REFERENCE, repeated: true },
    3: { name: 'imagePullSecrets', type: { 1: { name: 'name', type: 'string' } }, repeated: true },
    4: { name: 'automountServiceAccountToken', type: 'bool' },
  },
};

const MAGIC = [0x6b, 0x38, 0x73, 0x00];
const malformed = (): never => {
  throw badRequest('the body of the request could not be decoded as a Kubernetes protobuf message');
};

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array, readonly end = buf.length) {}

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.end || shift > 63n) return malformed();
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }

  bytes(): Uint8Array {
    const len = Number(this.varint());
    if (len < 0 || this.pos + len > this.end) return malformed();
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else malformed();
    if (this.pos > this.end) malformed();
  }

  /** Calls `fn(field, wireType)` for each field; `fn` must consume the value (or call skip). */
  fields(fn: (field: number, wire: number) => void): void {
    while (this.pos < this.end) {
      const tag = Number(this.varint());
      fn(tag >>> 3, tag & 7);
    }
  }
}

const text = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

function decodeMessage(buf: Uint8Array, schema: Schema): Record<string, unknown> {
  const r = new Reader(buf);
  const out: Record<string, unknown> = {};
  r.fields((field, wire) => {
    const spec = schema[field];
    if (!spec) return r.skip(wire);
    const value = decodeValue(r, wire, spec.type);
    // Generated protobuf code writes every field; JSON omits empty ones (`omitempty`), so drop them here.
    if (value === '' || value === 0 || value === false || value === undefined) return;
    if (spec.type === 'map' || spec.type === 'bytesMap') {
      const [k, v] = value as [string, unknown];
      out[spec.name] = { ...(out[spec.name] as object | undefined), [k]: v };
    } else if (spec.repeated) (out[spec.name] = (out[spec.name] as unknown[] | undefined) ?? []) && (out[spec.name] as unknown[]).push(value);
    else out[spec.name] = value;
  });
  return out;
}

function decodeValue(r: Reader, wire: number, type: FieldType): unknown {
  if (type === 'int') return wire === 0 ? Number(BigInt.asIntN(64, r.varint())) : malformed();
  if (type === 'bool') return wire === 0 ? r.varint() !== 0n : malformed();
  if (wire !== 2) return malformed();
  const b = r.bytes();
  switch (type) {
    case 'string':
      return text(b);
    case 'bytes':
      return Buffer.from(b).toString('base64');
    case 'time': {
      const seconds = Number(decodeMessage(b, TIME).seconds ?? 0);
      return seconds > 0 ? new Date(seconds * 1000).toISOString().replace('.000Z', 'Z') : undefined;
    }
    case 'map':
    case 'bytesMap': {
      const e = decodeMessage(b, { 1: { name: 'k', type: 'string' }, 2: { name: 'v', type: type === 'map' ? 'string' : 'bytes' } });
      return [String(e.k ?? ''), e.v ?? ''];
    }
    default:
      return decodeMessage(b, type);
  }
}

/** Decodes a `k8s\0` + `runtime.Unknown` body into a JSON-shaped object. */
export function decodeProtobufObject(body: Uint8Array): KubeObject {
  if (body.length < 4 || MAGIC.some((m, i) => body[i] !== m)) return malformed();
  const envelope = decodeMessage(body.subarray(4), {
    1: { name: 'typeMeta', type: { 1: { name: 'apiVersion', type: 'string' }, 2: { name: 'kind', type: 'string' } } },
    2: { name: 'raw', type: 'bytes' },
  });
  const tm = (envelope.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const schema = KINDS[`${tm.apiVersion ?? ''}/${tm.kind ?? ''}`];
  if (!schema) {
    throw unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (protobuf only for ${Object.keys(KINDS).join(', ')})`);
  }
  const raw = Buffer.from(String(envelope.raw ?? ''), 'base64');
  const obj = decodeMessage(raw, schema) as KubeObject;
  obj.apiVersion = tm.apiVersion;
  obj.kind = tm.kind;
  obj.metadata ??= {};
  return obj;
}
