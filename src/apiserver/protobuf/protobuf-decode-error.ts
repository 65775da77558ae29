/**
 * The one error the protobuf decoder throws: bytes that are not a well-formed message (400), or a
 * kind or field this server does not model (415: decoding on without it would drop data). It
 * carries the HTTP code so `decode-object.ts` turns it into a `Status` without guessing.
 */
import { ConvergeError } from '../../meta/index.js';

export type ProtobufDecodeHttpCode = 400 | 415;

export class ProtobufDecodeError extends ConvergeError {
  readonly code = 'CONVERGE_PROTOBUF_DECODE';
  override readonly name = 'ProtobufDecodeError';
  constructor(
    readonly httpCode: ProtobufDecodeHttpCode,
    message: string,
  ) {
    super(message);
  }
}

/** Malformed bytes: a truncated field, a wire type that does not fit, a missing prefix. */
export const malformed = (message: string): ProtobufDecodeError => new ProtobufDecodeError(400, message);
