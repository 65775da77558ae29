// Decoding Kubernetes protobuf request bodies into plain objects (the request side only: responses stay JSON).
export { decodeProtobufDeleteOptions, ProtobufBodies, PROTOBUF_MEDIA_TYPE } from './decode-object.js';
export type { ProtobufKind } from './decode-object.js';
export type { MessageTable } from './message-schema.js';
