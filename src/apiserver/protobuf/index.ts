// Decoding Kubernetes protobuf request bodies into plain objects (the request side only: responses stay JSON).
export { decodeProtobufDeleteOptions, decodeProtobufObject, PROTOBUF_KINDS, PROTOBUF_MEDIA_TYPE } from './decode-object.js';
